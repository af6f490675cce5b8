import TokenKit
import TokenKitStore

/// The CLI's one way to read a file that holds, or may hold, a secret: TokenKitStore's
/// ``SecretFile`` admission check, its refusals reported as ``CLIFailure/io(_:)`` (exit 2,
/// the message naming the file, its mode and `chmod 600`).
///
/// Every option that reads such a file goes through here: `--passphrase-file`,
/// `--client-secret-file`, `--client-key`, `--database-password-file` and `--secret` (always
/// secrets), and the key files of `sign`, `verify`, `audit` and `jwk` (`--key`, `--jwks FILE`,
/// `jwk PATH`), which are secret files when they hold a private key or an HMAC secret
/// (``KeyFile/holdsSecret(_:)``) and may be world-readable when they hold public keys only.
enum SecretFileReading {
    /// A file that always holds a secret; a loose mode is refused before it is read.
    static func read(_ path: String, what: String, limit: Int) throws(CLIFailure) -> [UInt8] {
        do {
            return try SecretFile.read(path, what: what, limit: limit)
        } catch {
            throw .io(error.message)
        }
    }

    /// A key file (PEM, JWK or JWKS, at most ``KeyFile/maximumSize`` bytes): refused when it
    /// holds secret material and other users may read it.
    static func readKeyFile(_ path: String, what: String = "key file") throws(CLIFailure) -> [UInt8] {
        do {
            return try SecretFile.read(path, what: what, limit: KeyFile.maximumSize, holdsSecret: { KeyFile.holdsSecret($0) })
        } catch {
            throw .io(error.message)
        }
    }
}
