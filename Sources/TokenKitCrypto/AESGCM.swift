internal import COpenSSL

/// AES-GCM authenticated encryption through OpenSSL's EVP interface.
///
/// Guarantees: a 16-, 24- or 32-byte key (AES-128/192/256; the stores always use 32), a
/// 12-byte nonce and a 16-byte tag, always; `open` returns plaintext only when the tag
/// verifies over the ciphertext and the additional data (OpenSSL compares the tag in constant
/// time), and the decrypted bytes live in ``SecureBytes``.
/// Does not: choose nonces for you beyond ``AESGCM/randomNonce()``, or detect nonce reuse —
/// a caller must never seal two messages with the same key and nonce.
package enum AESGCM {
    /// Key length in bytes of AES-256, the stores' key.
    package static let keyByteCount = 32
    /// Nonce (IV) length in bytes.
    package static let nonceByteCount = 12
    /// Authentication tag length in bytes.
    package static let tagByteCount = 16

    /// A sealed message: ciphertext (same length as the plaintext) and its tag.
    package struct SealedBox: Sendable, Equatable {
        /// The encrypted bytes.
        package var ciphertext: [UInt8]
        /// The 16-byte GCM tag over the additional data and the ciphertext.
        package var tag: [UInt8]

        /// A box from its parts (sizes are checked by ``AESGCM/open(_:key:nonce:additionalData:)``).
        package init(ciphertext: [UInt8], tag: [UInt8]) {
            self.ciphertext = ciphertext
            self.tag = tag
        }
    }

    /// A fresh random 12-byte nonce from OpenSSL's DRBG.
    package static func randomNonce() throws(CryptoError) -> [UInt8] {
        try RandomBytes.generate(count: nonceByteCount)
    }

    /// Encrypts `plaintext` and authenticates it together with `additionalData`.
    package static func seal(
        _ plaintext: SecureBytes, key: SecureBytes, nonce: [UInt8], additionalData: [UInt8]
    ) throws(CryptoError) -> SealedBox {
        let context = try start(encrypt: true, key: key, nonce: nonce, additionalData: additionalData)
        var ciphertext = [UInt8](repeating: 0, count: plaintext.count)
        let written = try CryptoError.rethrowing("AES-GCM failed") {
            try plaintext.withUnsafeBytes { input in
                try ciphertext.withUnsafeMutableBytes { output in try context.update(input: input, output: output) }
            }
        }
        guard written == plaintext.count else { throw CryptoError("AES-GCM produced an unexpected length") }
        let tail = try withUnsafeTemporaryAllocation(byteCount: 32, alignment: 16) { (scratch) throws(CryptoError) in
            try context.finish(output: scratch, failure: "AES-GCM encryption failed")
        }
        guard tail == 0 else { throw CryptoError("AES-GCM produced an unexpected length") }
        var tag = [UInt8](repeating: 0, count: tagByteCount)
        guard context.tag(&tag, get: true) else { throw .openSSL("could not read the AES-GCM tag") }
        return SealedBox(ciphertext: ciphertext, tag: tag)
    }

    /// Decrypts `box` if its tag verifies over `additionalData` and the ciphertext.
    ///
    /// - Throws: ``CryptoError`` with message `"authentication failed"` when the key, nonce,
    ///   additional data, ciphertext or tag do not match; no plaintext is returned then.
    package static func open(
        _ box: SealedBox, key: SecureBytes, nonce: [UInt8], additionalData: [UInt8]
    ) throws(CryptoError) -> SecureBytes {
        guard box.tag.count == tagByteCount else { throw CryptoError("the AES-GCM tag must be \(tagByteCount) bytes") }
        let context = try start(encrypt: false, key: key, nonce: nonce, additionalData: additionalData)
        return try SecureBytes.filling(count: box.ciphertext.count) { (output) throws(CryptoError) in
            let written = try CryptoError.rethrowing("AES-GCM failed") {
                try box.ciphertext.withUnsafeBytes { input in try context.update(input: input, output: output) }
            }
            guard written == box.ciphertext.count else { throw CryptoError("AES-GCM produced an unexpected length") }
            var tag = box.tag
            guard context.tag(&tag, get: false) else { throw CryptoError.openSSL("could not set the AES-GCM tag") }
            // EVP_DecryptFinal_ex checks the tag (in constant time inside OpenSSL); on a
            // mismatch the partially decrypted `output` is wiped when `filling` releases it.
            let tail = try withUnsafeTemporaryAllocation(byteCount: 32, alignment: 16) { (scratch) throws(CryptoError) in
                try context.finish(output: scratch, failure: "authentication failed")
            }
            guard tail == 0 else { throw CryptoError("authentication failed") }
        }
    }

    /// A context set up for `key` (16, 24 or 32 bytes) and `nonce`, with the additional data fed.
    private static func start(
        encrypt: Bool, key: SecureBytes, nonce: [UInt8], additionalData: [UInt8]
    ) throws(CryptoError) -> CipherContext {
        guard nonce.count == nonceByteCount else { throw CryptoError("an AES-GCM nonce must be \(nonceByteCount) bytes") }
        let cipher = try FetchedCipher.aes(.gcm, keyByteCount: key.count)
        let context = try CipherContext()
        OpenSSLErrorQueue.clear()
        try context.initialize(cipher, encrypt: encrypt, key: key, iv: nonce, ivLength: nonceByteCount)
        try CryptoError.rethrowing("could not add the AES-GCM additional data") {
            try additionalData.withBytes { aad in try context.addAdditionalData(aad) }
        }
        return context
    }
}
