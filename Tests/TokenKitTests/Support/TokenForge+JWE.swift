import TokenKit
import TokenKitCrypto

/// Hostile JWEs whose only defect is the one under test: the parts are assembled by hand and
/// encrypted correctly (with the wrapper's primitives, under ``jweSecret`` as a `dir` key), so
/// a refusal can only come from the defect and never from a failed decryption.
extension TokenForge {
    /// The `dir` secret of forged JWEs: 32 bytes, the key of A256GCM and A128CBC-HS256.
    static let jweSecret: [UInt8] = Array("jwe-forge-secret-0123456789abcd!".utf8)

    static func jweKey() throws -> JWEKey { try JWEKey.symmetric(secret: jweSecret) }

    /// A compact JWE whose protected header is exactly `header` (JSON text), whose content is
    /// `plaintext` encrypted under ``jweSecret`` (AES-256-GCM when `header` names an `enc`
    /// ending in GCM, else A128CBC-HS256), and whose encrypted-key part is `encryptedKey`.
    static func jwe(header: String, plaintext: [UInt8] = Array("forged".utf8), encryptedKey: [UInt8] = []) throws -> String {
        let protected = Base64URL.encode(Array(header.utf8))
        let aad = Array(protected.utf8)
        let key = SecureBytes(jweSecret)
        let iv: [UInt8], ciphertext: [UInt8], tag: [UInt8]
        if header.contains("GCM\"") {
            iv = [UInt8](repeating: 0x11, count: 12)
            let box = try AESGCM.seal(SecureBytes(plaintext), key: key, nonce: iv, additionalData: aad)
            (ciphertext, tag) = (box.ciphertext, box.tag)
        } else {
            iv = [UInt8](repeating: 0x22, count: 16)
            (ciphertext, tag) = try AESCBCHMAC.seal(plaintext, key: key, iv: iv, additionalData: aad)
        }
        return [protected, Base64URL.encode(encryptedKey), Base64URL.encode(iv), Base64URL.encode(ciphertext), Base64URL.encode(tag)]
            .joined(separator: ".")
    }

    /// `token` with part `index` (0-based) replaced by the base64url of `bytes`.
    static func replacingPart(_ index: Int, of token: String, with bytes: [UInt8]) -> String {
        var parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        parts[index] = Base64URL.encode(bytes)
        return parts.joined(separator: ".")
    }

    /// The decoded bytes of part `index` (0-based) of `token`.
    static func part(_ index: Int, of token: String) throws -> [UInt8] {
        try Base64URL.decode(token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)[index])
    }
}
