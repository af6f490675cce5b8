import ArgumentParser
import TokenKit
internal import TokenKitPrimitives

/// `tokenkit jwk`: prints the JWK of a PEM key, with its RFC 7638 thumbprint as `kid`; with
/// several keys (or `--set`), a JWKS `{"keys":[…]}` of them.
struct JWKCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jwk",
        abstract: "Print the JWK of a PEM key, or a JWKS of several (kid = RFC 7638 thumbprint).",
        discussion: """
            One key prints one JWK object. Several keys, or --set, print a JWKS document \
            {"keys":[…]} in the order given, each key with its thumbprint as kid and public \
            parameters only (unless --private), ready to serve at /.well-known/jwks.json. \
            The same key given twice is an error. A file holding a private key must not be \
            readable by other users (exit 2: chmod 600); public keys and certificates may be.
            """)

    @Argument(help: "PEM key or certificate file(s).")
    var paths: [String]

    @Flag(help: "Include the private key members (the output is then secret).")
    var `private` = false

    @Flag(help: "Print a JWKS document even for one key.")
    var set = false

    func validate() throws {
        guard !paths.isEmpty else { throw ValidationError("give at least one key file") }
    }

    func run() async throws {
        try await reportingFailures {
            var keys: [JWTKey] = []
            var seen: [ExactKey: String] = [:]  // thumbprint → file, compared byte for byte
            for path in paths {
                let key = try Self.load(path, needsPrivate: `private`)
                let kid: String
                do throws(JWTError) { kid = try key.thumbprint() } catch { throw CLIFailure.io("unusable key in \(path): \(error.reason)") }
                if let first = seen[ExactKey(kid)] { throw CLIFailure.io("\(path) holds the same key as \(first)") }
                seen[ExactKey(kid)] = path
                keys.append(key.withKeyID(kid))
            }
            do throws(JWTError) {
                if keys.count == 1, !set, let only = keys.first {
                    StandardStreams.printOutput(try only.jwk(includingPrivate: `private`))
                } else if `private` {
                    let entries = try keys.map { key throws(JWTError) in JSONValue.object(try key.jwkObject(includingPrivate: true)) }
                    StandardStreams.printOutput(JSONValue.object(JSONObject([("keys", .array(entries))])).jsonText)
                } else {
                    StandardStreams.printOutput(try JWKSet.publicDocument(keys))
                }
            } catch {
                throw CLIFailure.io("cannot export the keys: \(error.reason)")
            }
        }
    }

    /// The key in a PEM file, read through the secret-file admission check (a private key
    /// must not be readable by other users; a public key or certificate may be).
    private static func load(_ path: String, needsPrivate: Bool) throws -> JWTKey {
        var bytes = try SecretFileReading.readKeyFile(path)
        defer { for index in bytes.indices { bytes[index] = 0 } }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw CLIFailure.io("key file \(path) is not PEM text") }
        do {
            let key = try JWTKey(pem: text)
            guard !needsPrivate || key.isSecret else { throw CLIFailure.io("key file \(path) holds a public key; --private needs a private key") }
            return key
        } catch let error as JWTError {
            throw CLIFailure.io("unusable key in \(path): \(error.reason)")
        }
    }
}
