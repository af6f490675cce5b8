internal import TokenKitCrypto

/// Content encryption for JWE (RFC 7518 §5): AES-GCM or AES-CBC-HMAC over the plaintext,
/// authenticating the protected header's base64url text.
enum JWEContentCipher {
    /// The one error of every failed decryption: wrong key, failed unwrap (a random CEK was
    /// substituted), altered ciphertext, IV, header or tag, bad padding.
    static var failure: JWTError { JWTError(code: .decryptionFailed, reason: "decryption failed") }

    static func seal(
        _ plaintext: [UInt8], cek: SecureBytes, encryption: JWEContentEncryption, additionalData: [UInt8]
    ) throws(JWTError) -> (iv: [UInt8], ciphertext: [UInt8], tag: [UInt8]) {
        do {
            if encryption.isGCM {
                let iv = try AESGCM.randomNonce()
                let box = try AESGCM.seal(SecureBytes(plaintext), key: cek, nonce: iv, additionalData: additionalData)
                return (iv, box.ciphertext, box.tag)
            }
            let iv = try AESCBCHMAC.randomIV()
            let sealed = try AESCBCHMAC.seal(plaintext, key: cek, iv: iv, additionalData: additionalData)
            return (iv, sealed.ciphertext, sealed.tag)
        } catch {
            throw .invalidKey("cannot encrypt with \(encryption)", cause: error)
        }
    }

    /// The plaintext, or ``failure`` for any failure (sizes were checked before).
    static func open(_ jwe: CompactJWE, cek: SecureBytes) throws(JWTError) -> [UInt8] {
        let opened: SecureBytes
        do {
            if jwe.header.encryption.isGCM {
                opened = try AESGCM.open(AESGCM.SealedBox(ciphertext: jwe.ciphertext, tag: jwe.tag), key: cek, nonce: jwe.iv,
                                         additionalData: jwe.additionalData)
            } else {
                opened = try AESCBCHMAC.open(ciphertext: jwe.ciphertext, tag: jwe.tag, key: cek, iv: jwe.iv,
                                             additionalData: jwe.additionalData)
            }
        } catch {
            throw failure
        }
        return opened.bytes
    }
}
