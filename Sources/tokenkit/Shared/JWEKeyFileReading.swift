import TokenKit

/// Reads the key `encrypt` and `decrypt` take: the file's bytes go to the library's
/// ``JWEKey/init(keyFileContents:for:)``, which decides what they hold for the algorithm.
/// Errors name the file, never its contents.
enum JWEKeyFileReading {
    /// The recipient key for `encrypt`: a secret for A*KW/dir, read through the secret-file
    /// check (exit 2 when other users may read it); a public key otherwise (a private key is
    /// refused, exit 2: encryption needs only the recipient's public key). Every failure exits 2.
    static func encryptionKey(fromFile path: String, for algorithm: JWEKeyAlgorithm) throws -> JWEKey {
        var bytes = algorithm.isAsymmetric
            ? try SecretFileReading.readKeyFile(path)
            : try SecretFileReading.read(path, what: "secret file", limit: 64 * 1024)
        defer { for index in bytes.indices { bytes[index] = 0 } }
        let key: JWEKey
        do throws(JWTError) { key = try JWEKey(keyFileContents: bytes, for: algorithm) } catch {
            throw CLIFailure.io("unusable key in \(path): \(error.reason)")
        }
        if algorithm.isAsymmetric, key.isSecret {
            throw CLIFailure.io("key file \(path) holds a private key: encrypt takes the recipient's public key")
        }
        return key
    }

    /// The recipient key for `decrypt`, from bytes already read through the secret-file
    /// check: an unreadable key exits 2, a key that does not fit the token's `alg` exits 1.
    static func decryptionKey(fromBytes bytes: [UInt8], path: String, for algorithm: JWEKeyAlgorithm) throws -> JWEKey {
        do throws(JWTError) { return try JWEKey(keyFileContents: bytes, for: algorithm) } catch {
            if error.code == .algorithmNotAllowed { throw CLIFailure.rejected(error.reason) }
            throw CLIFailure.io("unusable key in \(path): \(error.reason)")
        }
    }
}
