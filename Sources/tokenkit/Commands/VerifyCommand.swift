import ArgumentParser
import Foundation
import TokenKit

/// `tokenkit verify`: checks a token's signature and claims.
struct VerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Verify a JWT's signature and claims; print its payload.",
        discussion: """
            Allowed algorithms are the --alg values, or else those that fit the key. 'none' is \
            never accepted; an HMAC secret never verifies RS/PS/ES/EdDSA tokens and a public key \
            never verifies HS tokens. Checks exp and nbf when present (expired when now >= exp + \
            leeway), iss and aud when given, --require claims, and refuses any crit header. \
            A token without exp is accepted unless you give --require exp (the library's \
            ValidationOptions require exp by default; this command does not). \
            A key file holding a private key or an HMAC secret (--key, --secret, --jwks FILE) \
            must not be readable by other users (exit 2: chmod 600); public keys may be. \
            --jwks URL and --issuer-discovery fetch keys through the library's RemoteJWKS (https, \
            http only for loopback, same-origin redirects only, 1 MiB, public keys only). With --jws, only the header and signature are checked and the payload bytes are \
            printed exactly. Exit 0 valid, 1 rejected, 2 key or I/O error, 64 usage error.
            """)

    @Option(help: "Key file: PEM public key (SPKI, PKCS#1), X.509 certificate, PEM private key (its public half is used; mode 0600), or JWK/JWKS JSON.")
    var key: String?

    @Option(help: "File whose raw bytes are the HMAC secret (mode 0600).")
    var secret: String?

    @Option(help: "JWKS file, or an https URL (http only for loopback addresses).")
    var jwks: String?

    @Flag(name: .customLong("issuer-discovery"), help: "Find the JWKS through --iss's /.well-known/openid-configuration (its issuer must equal --iss exactly).")
    var issuerDiscovery = false

    @Option(help: "Allowed algorithm (repeatable; default: those that fit the key).")
    var alg: [JWTAlgorithm] = []

    @Option(help: "Required issuer (exact match).")
    var iss: String?

    @Option(help: "Required audience (exact match against aud, a string or an array).")
    var aud: String?

    @Option(help: "Seconds of clock skew tolerated for exp, nbf and iat (default 0).")
    var leeway: Double = 0

    @Option(help: "The current time as UNIX seconds (default: the system clock).")
    var now: Double?

    @Option(help: "A claim that must be present (repeatable). exp is not required unless named here (--require exp).")
    var require: [String] = []

    @Flag(help: "Plain JWS mode: check header and signature only; print the payload bytes exactly.")
    var jws = false

    @Argument(help: "The token, or '-' for stdin.")
    var token: String?

    func validate() throws {
        let given = [key, secret, jwks, issuerDiscovery ? "discovery" : nil].compactMap { $0 }
        guard given.count == 1 else {
            throw ValidationError(given.isEmpty ? "give one of --key, --secret, --jwks or --issuer-discovery" : "--key, --secret, --jwks and --issuer-discovery cannot be combined")
        }
        if issuerDiscovery, iss == nil { throw ValidationError("--issuer-discovery needs --iss") }
        guard leeway.isFinite, leeway >= 0 else { throw ValidationError("--leeway must be a non-negative number of seconds") }
        if let now, !now.isFinite { throw ValidationError("--now must be UNIX seconds") }
    }

    func run() async throws {
        try await reportingFailures {
            let keys: JWKSet
            if let secret {
                keys = JWKSet(keys: [try KeyLoading.secret(fromFile: secret)])
            } else if let key {
                keys = try KeyLoading.keys(fromFile: key, purpose: .verify)
            } else if issuerDiscovery, let iss {
                keys = try await KeyLoading.remoteJWKS(.discovery(issuer: iss))
            } else {
                keys = try await KeyLoading.jwks(from: jwks ?? "")
            }
            let text = try TokenInput.token(token)
            let options = ValidationOptions(
                algorithms: alg.isEmpty ? nil : Set(alg),
                leeway: .seconds(clamping: leeway),
                requiredClaims: IdentifierSet(require),
                issuers: iss.map { [$0] },
                audiences: aud.map { [$0] },
                rejectIssuedInFuture: false,
                clock: now.map { FixedClock(Date(timeIntervalSince1970: $0)) as any TokenClock } ?? SystemClock())
            let verifier = JWTVerifier(keys: keys, options: options)
            do throws(JWTError) {
                if jws {
                    StandardStreams.writeOutput(try verifier.verifyJWS(text).payload)
                } else {
                    StandardStreams.printOutput(JSONValue.object(try verifier.verify(text).claims.raw).terminalJSONText)
                }
            } catch {
                throw CLIFailure.rejected(error.reason)
            }
        }
    }
}
