import ArgumentParser
import TokenKit

/// `tokenkit encrypt`: encrypts a payload as a compact JWE to a recipient's key.
struct EncryptCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "encrypt",
        abstract: "Encrypt a payload as a compact JWE and print it.",
        discussion: """
            --key is the recipient's public key (PEM SPKI, X.509 certificate, PKCS#1, or a public \
            JWK) for RSA-OAEP, RSA-OAEP-256 and ECDH-ES*, or a file of raw secret bytes for \
            A128KW/A192KW/A256KW (16/24/32 bytes) and dir (the enc's key length; the file must not \
            be readable by other users). Every JWE gets a fresh content key and IV. The payload \
            comes from the argument, or from stdin when it is '-' or absent. RSA1_5, PBES2-* and \
            other algorithms are refused (exit 64). Exit 0 printed, 1 payload too large, 2 key or \
            I/O error, 64 usage error.
            """)

    @Option(help: "Recipient key file: public PEM or JWK, or raw secret bytes for A*KW and dir.")
    var key: String

    @Option(help: "Key management: \(JWEKeyAlgorithm.all.map(\.name).joined(separator: " ")).")
    var alg: String

    @Option(help: "Content encryption: \(JWEContentEncryption.all.map(\.name).joined(separator: " ")).")
    var enc: String = JWEContentEncryption.a256GCM.name

    @Option(help: "Key ID for the protected header (default: the JWK's kid, if any).")
    var kid: String?

    @Option(help: "Content type for the protected header (JWT for a nested JWT).")
    var cty: String?

    @Argument(help: "The payload, or '-' for stdin.")
    var payload: String?

    func validate() throws {
        if let reason = JWEKeyAlgorithm.refusalReason(forName: alg) { throw ValidationError(reason) }
        guard JWEContentEncryption(name: enc) != nil else {
            throw ValidationError("unsupported --enc \"\(enc)\" (use one of \(JWEContentEncryption.all.map(\.name).joined(separator: ", ")))")
        }
    }

    func run() async throws {
        try await reportingFailures {
            guard let algorithm = JWEKeyAlgorithm(name: alg), let encryption = JWEContentEncryption(name: enc) else {
                throw CLIFailure.usage("unsupported --alg or --enc")
            }
            let recipient = try JWEKeyFileReading.encryptionKey(fromFile: key, for: algorithm)
            let encrypter: JWEEncrypter
            do throws(JWTError) { encrypter = try JWEEncrypter(recipient: recipient, algorithm: algorithm, encryption: encryption) } catch {
                throw CLIFailure.io("unusable key in \(key): \(error.reason)")
            }
            let plaintext: [UInt8]
            if let payload, payload != "-" { plaintext = Array(payload.utf8) } else { plaintext = try TokenInput.readStdinBytes(what: "payload") }
            do throws(JWTError) {
                StandardStreams.printOutput(try encrypter.encrypt(plaintext, header: JWEHeaderFields(keyID: kid, contentType: cty)))
            } catch {
                throw error.code == .tooLarge ? CLIFailure.rejected(error.reason) : CLIFailure.io(error.reason)
            }
        }
    }
}
