internal import COpenSSL

/// AES-256-GCM authenticated encryption through OpenSSL's EVP interface.
///
/// Guarantees: a 32-byte key, a 12-byte nonce and a 16-byte tag, always; `open` returns
/// plaintext only when the tag verifies over the ciphertext and the additional data (OpenSSL
/// compares the tag in constant time), and the decrypted bytes live in ``SecureBytes``.
/// Does not: choose nonces for you beyond ``AESGCM/randomNonce()``, or detect nonce reuse —
/// a caller must never seal two messages with the same key and nonce.
package enum AESGCM {
    /// Key length in bytes (AES-256).
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
        try checkSizes(key: key, nonce: nonce)
        guard plaintext.count < Int(Int32.max) else { throw CryptoError("the plaintext is too large for AES-GCM") }
        let context = try CipherContext()
        OpenSSLErrorQueue.clear()
        try context.initialize(encrypt: true, key: key, nonce: nonce)
        try context.addAdditionalData(additionalData)
        var ciphertext = [UInt8](repeating: 0, count: plaintext.count)
        let written = try CryptoError.rethrowing("AES-GCM failed") {
            try plaintext.withUnsafeBytes { input in
                try ciphertext.withUnsafeMutableBytes { output in
                    try context.update(input: input, output: output)
                }
            }
        }
        guard written == plaintext.count else { throw CryptoError("AES-GCM produced an unexpected length") }
        try context.finish(encrypt: true)
        var tag = [UInt8](repeating: 0, count: tagByteCount)
        let rc = tag.withUnsafeMutableBytes {
            tokenkit_EVP_CIPHER_CTX_ctrl(context.pointer, tokenkit_EVP_CTRL_GCM_GET_TAG(), Int32(tagByteCount), $0.baseAddress)
        }
        guard rc == 1 else { throw .openSSL("could not read the AES-GCM tag") }
        return SealedBox(ciphertext: ciphertext, tag: tag)
    }

    /// Decrypts `box` if its tag verifies over `additionalData` and the ciphertext.
    ///
    /// - Throws: ``CryptoError`` with message `"authentication failed"` when the key, nonce,
    ///   additional data, ciphertext or tag do not match; no plaintext is returned then.
    package static func open(
        _ box: SealedBox, key: SecureBytes, nonce: [UInt8], additionalData: [UInt8]
    ) throws(CryptoError) -> SecureBytes {
        try checkSizes(key: key, nonce: nonce)
        guard box.tag.count == tagByteCount else { throw CryptoError("the AES-GCM tag must be \(tagByteCount) bytes") }
        guard box.ciphertext.count < Int(Int32.max) else { throw CryptoError("the ciphertext is too large for AES-GCM") }
        let context = try CipherContext()
        OpenSSLErrorQueue.clear()
        try context.initialize(encrypt: false, key: key, nonce: nonce)
        try context.addAdditionalData(additionalData)
        return try SecureBytes.filling(count: box.ciphertext.count) { (output) throws(CryptoError) in
            let written = try CryptoError.rethrowing("AES-GCM failed") {
                try box.ciphertext.withUnsafeBytes { input in try context.update(input: input, output: output) }
            }
            guard written == box.ciphertext.count else { throw CryptoError("AES-GCM produced an unexpected length") }
            var tag = box.tag
            let rc = tag.withUnsafeMutableBytes {
                tokenkit_EVP_CIPHER_CTX_ctrl(context.pointer, tokenkit_EVP_CTRL_GCM_SET_TAG(), Int32(tagByteCount), $0.baseAddress)
            }
            guard rc == 1 else { throw CryptoError.openSSL("could not set the AES-GCM tag") }
            // EVP_DecryptFinal_ex checks the tag (in constant time inside OpenSSL); on a
            // mismatch the partially decrypted `output` is wiped when `filling` releases it.
            do {
                try context.finish(encrypt: false)
            } catch {
                _ = OpenSSLErrorQueue.drain()
                throw CryptoError("authentication failed")
            }
        }
    }

    private static func checkSizes(key: SecureBytes, nonce: [UInt8]) throws(CryptoError) {
        guard key.count == keyByteCount else { throw CryptoError("an AES-256-GCM key must be \(keyByteCount) bytes") }
        guard nonce.count == nonceByteCount else { throw CryptoError("an AES-GCM nonce must be \(nonceByteCount) bytes") }
    }
}

/// Owns one `EVP_CIPHER_CTX` and frees it (which also wipes its key schedule) exactly once.
private final class CipherContext {
    let pointer: OpaquePointer

    init() throws(CryptoError) {
        OpenSSLErrorQueue.clear()
        guard let context = EVP_CIPHER_CTX_new() else { throw .openSSL("could not allocate a cipher context") }
        pointer = context
    }

    deinit { EVP_CIPHER_CTX_free(pointer) }

    func initialize(encrypt: Bool, key: SecureBytes, nonce: [UInt8]) throws(CryptoError) {
        let initFn = encrypt ? EVP_EncryptInit_ex : EVP_DecryptInit_ex
        guard initFn(pointer, EVP_aes_256_gcm(), nil, nil, nil) == 1 else { throw .openSSL("could not set up AES-256-GCM") }
        guard tokenkit_EVP_CIPHER_CTX_ctrl(pointer, tokenkit_EVP_CTRL_GCM_SET_IVLEN(), Int32(nonce.count), nil) == 1 else {
            throw .openSSL("could not set the AES-GCM nonce length")
        }
        let rc = key.withUnsafeBytes { keyBytes in
            nonce.withUnsafeBytes { nonceBytes in
                initFn(
                    pointer, nil, nil,
                    keyBytes.baseAddress?.assumingMemoryBound(to: UInt8.self),
                    nonceBytes.baseAddress?.assumingMemoryBound(to: UInt8.self))
            }
        }
        guard rc == 1 else { throw .openSSL("could not set the AES-GCM key and nonce") }
    }

    func addAdditionalData(_ aad: [UInt8]) throws(CryptoError) {
        guard !aad.isEmpty else { return }
        guard aad.count < Int(Int32.max) else { throw CryptoError("the additional data is too large") }
        var outLength: Int32 = 0
        let rc = aad.withUnsafeBytes {
            EVP_CipherUpdate(pointer, nil, &outLength, $0.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(aad.count))
        }
        guard rc == 1 else { throw .openSSL("could not add the AES-GCM additional data") }
    }

    /// Processes `input` into `output` (same length, as GCM is a stream mode); returns bytes written.
    func update(input: UnsafeRawBufferPointer, output: UnsafeMutableRawBufferPointer) throws(CryptoError) -> Int {
        guard !input.isEmpty else { return 0 }
        guard output.count >= input.count else { throw CryptoError("the AES-GCM output buffer is too small") }
        var outLength: Int32 = 0
        let rc = EVP_CipherUpdate(
            pointer, output.baseAddress?.assumingMemoryBound(to: UInt8.self), &outLength,
            input.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(input.count))
        guard rc == 1 else { throw .openSSL("AES-GCM failed") }
        return Int(outLength)
    }

    func finish(encrypt: Bool) throws(CryptoError) {
        // GCM never emits bytes at finalization; the buffer only satisfies the API.
        var scratch = [UInt8](repeating: 0, count: 32)
        var outLength: Int32 = 0
        let rc = scratch.withUnsafeMutableBytes {
            let out = $0.baseAddress?.assumingMemoryBound(to: UInt8.self)
            return encrypt ? EVP_EncryptFinal_ex(pointer, out, &outLength) : EVP_DecryptFinal_ex(pointer, out, &outLength)
        }
        guard rc == 1, outLength == 0 else { throw .openSSL(encrypt ? "AES-GCM encryption failed" : "authentication failed") }
    }
}
