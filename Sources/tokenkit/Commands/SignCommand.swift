import ArgumentParser
import Foundation
import TokenKit

/// `tokenkit sign`: signs claims JSON as a compact JWS.
struct SignCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign",
        abstract: "Sign claims as a JWT (compact JWS) and print it.",
        discussion: "The claims JSON comes from the argument, or from stdin when it is '-' or absent.")

    @Option(help: "Algorithm: \(JWTAlgorithm.all.map(\.name).joined(separator: " ")).")
    var alg: JWTAlgorithm

    @Option(help: "Private key file: PEM (PKCS#8, SEC1 'EC PRIVATE KEY', PKCS#1 'RSA PRIVATE KEY') or a private JWK; mode 0600 (other users must not be able to read it).")
    var key: String?

    @Option(help: "File whose raw bytes are the HMAC secret (HS256/384/512); mode 0600.")
    var secret: String?

    @Option(help: "Key ID to put in the header (default: the JWK's kid, if any).")
    var kid: String?

    @Option(help: "Header typ (default JWT).")
    var typ: String = "JWT"

    @Option(name: .customLong("expires-in"), help: "Add iat = now and exp = now + DURATION (90s, 15m, 1h, 7d or seconds).")
    var expiresIn: DurationArgument?

    @Option(help: "The current time as UNIX seconds (default: the system clock).")
    var now: Int64?

    @Argument(help: "Claims JSON object, or '-' for stdin.")
    var claims: String?

    func validate() throws {
        switch (key, secret) {
        case (nil, nil): throw ValidationError("give --key or --secret")
        case (.some, .some): throw ValidationError("--key and --secret cannot be used together")
        default: break
        }
        if alg.isHMAC && secret == nil && key == nil { throw ValidationError("\(alg) needs --secret") }
    }

    func run() async throws {
        try await reportingFailures {
            let signingKey = try loadKey()
            let text: String
            if let claims, claims != "-" { text = claims } else { text = try TokenInput.readStdinText(what: "claims") }
            var claimSet: JWTClaims
            do throws(JWTError) { claimSet = try JWTClaims(jsonText: text) } catch { throw CLIFailure.io("invalid claims: \(error.reason)") }
            if let expiresIn {
                let issued = now ?? Int64(Date().timeIntervalSince1970)
                let (exp, overflow) = issued.addingReportingOverflow(expiresIn.seconds)
                guard !overflow else { throw ValidationError("--expires-in is too large") }
                claimSet["iat"] = .number(JSONNumber(issued))
                claimSet["exp"] = .number(JSONNumber(exp))
            }
            let signer: JWTSigner
            do throws(JWTError) { signer = try JWTSigner(key: signingKey, algorithm: alg) } catch { throw CLIFailure.io("unusable key: \(error.reason)") }
            let token: String
            do throws(JWTError) { token = try signer.sign(claimSet, header: JWTHeaderFields(type: typ.isEmpty ? nil : typ, keyID: kid)) } catch {
                throw CLIFailure.io(error.reason)
            }
            StandardStreams.printOutput(token)
        }
    }

    private func loadKey() throws -> JWTKey {
        if let secret {
            guard alg.isHMAC else { throw CLIFailure.io("an HMAC secret cannot sign \(alg); use --key") }
            return try KeyLoading.secret(fromFile: secret)
        }
        guard let key else { throw CLIFailure.io("no key") }
        let set = try KeyLoading.keys(fromFile: key, purpose: .sign)
        guard set.keys.count == 1, let only = set.keys.first else {
            throw CLIFailure.io("key file \(key) holds a JWKS; give a single private key")
        }
        guard only.canSign else { throw CLIFailure.io("key file \(key) holds a public key; signing needs the private key") }
        return only
    }
}
