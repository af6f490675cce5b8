import TokenKit

/// Reads the private key for `private_key_jwt` client authentication (`--client-key`).
enum ClientKeyFile {
    /// The largest key file accepted.
    static let maximumBytes = 64 * 1024

    /// The one asymmetric private key in the file at `path` (PEM, or a JWK as JSON). The file
    /// is a secret file: like `--client-secret-file` it is refused (exit 2) when a group or
    /// other permission bit is set (``SecretFile``), as is an unreadable file, a public key, an
    /// HMAC secret or more than one key. Errors name the file, never its contents; the bytes
    /// read are wiped.
    static func read(_ path: String) throws -> JWTKey {
        var bytes = try SecretFileReading.read(path, what: "client key file", limit: maximumBytes)
        defer { for index in bytes.indices { bytes[index] = 0 } }
        let keys = try KeyLoading.keys(fromBytes: bytes, path: path, purpose: .sign).keys
        guard keys.count == 1, let key = keys.first, key.canSign, key.keyType != "oct" else {
            throw CLIFailure.io("the client key file \(path) must hold exactly one asymmetric private key")
        }
        return key
    }
}
