import ArgumentParser
import Foundation
import TokenKit

/// `tokenkit decrypt`: decrypts a compact JWE and prints its plaintext exactly.
struct DecryptCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decrypt",
        abstract: "Decrypt a compact JWE; print its plaintext bytes exactly.",
        discussion: """
            --key is the recipient's private key (PEM or private JWK) for RSA-OAEP* and ECDH-ES*, \
            or the file of raw secret bytes for A*KW and dir; it must not be readable by other \
            users (exit 2). Whitespace around the token is ignored; tokens up to 1 MiB are \
            accepted. Refused (exit 1): RSA1_5, PBES2-*, zip, crit, alg none or a JWS, an epk off \
            the key's curve, a key that does not fit the alg, short tags. Every decryption \
            failure (wrong key, bad tag, bad padding, failed unwrap) is the same message. \
            For a nested JWT: tokenkit decrypt --key K TOKEN | tokenkit verify --key SIGPUB -. \
            Exit 0 decrypted, 1 refused, 2 key or I/O error, 64 usage error.
            """)

    @Option(help: "Recipient key file: private PEM or JWK, or raw secret bytes for A*KW and dir.")
    var key: String

    @Argument(help: "The compact JWE, or '-' for stdin.")
    var token: String?

    func run() async throws {
        try await reportingFailures {
            var keyBytes = try SecretFileReading.read(key, what: "key file", limit: KeyFile.maximumSize)
            defer { for index in keyBytes.indices { keyBytes[index] = 0 } }
            let text = try TokenInput.token(token.map { $0 == "-" ? $0 : $0.trimmingCharacters(in: .whitespacesAndNewlines) })
            let header: JWEHeader
            do throws(JWTError) { header = try JWEHeader(compactJWE: text) } catch { throw CLIFailure.rejected(error.reason) }
            let recipient = try JWEKeyFileReading.decryptionKey(fromBytes: keyBytes, path: key, for: header.algorithm)
            let decrypter: JWEDecrypter
            do throws(JWTError) { decrypter = try JWEDecrypter(key: recipient) } catch { throw CLIFailure.io("unusable key in \(key): \(error.reason)") }
            do throws(JWTError) {
                StandardStreams.writeOutput(try decrypter.decrypt(text).plaintext)
            } catch {
                throw CLIFailure.rejected(error.reason)
            }
        }
    }
}
