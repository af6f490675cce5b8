internal import COpenSSL

/// Owns one `EVP_CIPHER_CTX` and frees it (which also wipes its key schedule) exactly once.
/// The one place the wrapper's symmetric ciphers (AES-GCM, AES-CBC, AES key wrap) set up,
/// feed and finish a cipher context.
final class CipherContext {
    let pointer: OpaquePointer

    init() throws(CryptoError) {
        OpenSSLErrorQueue.clear()
        guard let context = EVP_CIPHER_CTX_new() else { throw .openSSL("could not allocate a cipher context") }
        pointer = context
    }

    deinit { EVP_CIPHER_CTX_free(pointer) }

    /// Sets up `cipher` with `key` and `iv` (`nil` for the cipher's default IV, as AES key
    /// wrap uses) to encrypt or decrypt. `ivLength` first sets a non-default IV length (GCM).
    func initialize(
        _ cipher: FetchedCipher, encrypt: Bool, key: SecureBytes, iv: [UInt8]?, ivLength: Int? = nil
    ) throws(CryptoError) {
        guard key.count == cipher.keyByteCount else {
            throw CryptoError("\(cipher.name) needs a \(cipher.keyByteCount)-byte key, got \(key.count)")
        }
        let enc: Int32 = encrypt ? 1 : 0
        guard EVP_CipherInit_ex2(pointer, cipher.pointer, nil, nil, enc, nil) == 1 else { throw .openSSL("could not set up \(cipher.name)") }
        if let ivLength {
            guard tokenkit_EVP_CIPHER_CTX_ctrl(pointer, tokenkit_EVP_CTRL_GCM_SET_IVLEN(), Int32(ivLength), nil) == 1 else {
                throw .openSSL("could not set the \(cipher.name) IV length")
            }
        }
        let rc = key.withUnsafeBytes { keyBytes in
            withIV(iv) { ivPointer in
                EVP_CipherInit_ex2(pointer, nil, keyBytes.baseAddress?.assumingMemoryBound(to: UInt8.self), ivPointer, enc, nil)
            }
        }
        guard rc == 1 else { throw .openSSL("could not set the \(cipher.name) key and IV") }
    }

    private func withIV<R>(_ iv: [UInt8]?, _ body: (UnsafePointer<UInt8>?) -> R) -> R {
        guard let iv else { return body(nil) }
        return iv.withUnsafeBufferPointer { body($0.baseAddress) }
    }

    /// Turns padding off (AES-CBC pads with PKCS#7 by default).
    func disablePadding() { EVP_CIPHER_CTX_set_padding(pointer, 0) }

    /// Feeds additional authenticated data (AEAD modes only).
    func addAdditionalData(_ aad: UnsafeRawBufferPointer) throws(CryptoError) {
        guard !aad.isEmpty else { return }
        guard aad.count < Int(Int32.max) else { throw CryptoError("the additional data is too large") }
        var outLength: Int32 = 0
        let rc = EVP_CipherUpdate(pointer, nil, &outLength, aad.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(aad.count))
        guard rc == 1 else { throw .openSSL("could not add the additional data") }
    }

    /// Processes `input` into `output` (which must have room for `input.count` plus one block);
    /// returns the bytes written.
    func update(input: UnsafeRawBufferPointer, output: UnsafeMutableRawBufferPointer) throws(CryptoError) -> Int {
        guard !input.isEmpty else { return 0 }
        guard input.count < Int(Int32.max) - 32 else { throw CryptoError("the input is too large for one cipher call") }
        guard output.count >= input.count else { throw CryptoError("the cipher's output buffer is too small") }
        var outLength: Int32 = 0
        let rc = EVP_CipherUpdate(
            pointer, output.baseAddress?.assumingMemoryBound(to: UInt8.self), &outLength,
            input.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(input.count))
        guard rc == 1 else { throw .openSSL("the cipher failed") }
        return Int(outLength)
    }

    /// Finishes the operation into `output` (a padded mode's last block; nothing for GCM and
    /// key wrap); returns the bytes written. A failed tag or padding check throws `failure`.
    func finish(output: UnsafeMutableRawBufferPointer, failure: String) throws(CryptoError) -> Int {
        var outLength: Int32 = 0
        let rc = EVP_CipherFinal_ex(pointer, output.baseAddress?.assumingMemoryBound(to: UInt8.self), &outLength)
        guard rc == 1 else {
            OpenSSLErrorQueue.clear()
            throw CryptoError(failure)
        }
        return Int(outLength)
    }

    /// Reads (`get`) or sets the AEAD tag.
    func tag(_ tag: inout [UInt8], get: Bool) -> Bool {
        let count = Int32(tag.count)
        return tag.withUnsafeMutableBytes {
            tokenkit_EVP_CIPHER_CTX_ctrl(pointer, get ? tokenkit_EVP_CTRL_GCM_GET_TAG() : tokenkit_EVP_CTRL_GCM_SET_TAG(), count, $0.baseAddress) == 1
        }
    }
}

/// An AES cipher fetched from OpenSSL's default provider once (an explicit fetch: the
/// `EVP_aes_*()` functions make OpenSSL 3 fetch the implementation again on every init).
final class FetchedCipher: @unchecked Sendable {
    // @unchecked Sendable: an EVP_CIPHER is immutable once fetched and may be shared.
    let pointer: OpaquePointer
    /// OpenSSL's name, e.g. "AES-256-GCM".
    let name: String
    let keyByteCount: Int

    private init(_ name: String) {
        guard let cipher = EVP_CIPHER_fetch(nil, name, nil) else {
            preconditionFailure("OpenSSL's default provider has no \(name)")
        }
        pointer = cipher
        self.name = name
        keyByteCount = Int(EVP_CIPHER_get_key_length(cipher))
    }

    deinit { EVP_CIPHER_free(pointer) }

    static let aes128GCM = FetchedCipher("AES-128-GCM")
    static let aes192GCM = FetchedCipher("AES-192-GCM")
    static let aes256GCM = FetchedCipher("AES-256-GCM")
    static let aes128CBC = FetchedCipher("AES-128-CBC")
    static let aes192CBC = FetchedCipher("AES-192-CBC")
    static let aes256CBC = FetchedCipher("AES-256-CBC")
    static let aes128Wrap = FetchedCipher("AES-128-WRAP")
    static let aes192Wrap = FetchedCipher("AES-192-WRAP")
    static let aes256Wrap = FetchedCipher("AES-256-WRAP")

    /// The cipher of `family` for an AES key of `keyByteCount` bytes (16, 24 or 32).
    static func aes(_ family: Family, keyByteCount: Int) throws(CryptoError) -> FetchedCipher {
        switch (family, keyByteCount) {
        case (.gcm, 16): aes128GCM
        case (.gcm, 24): aes192GCM
        case (.gcm, 32): aes256GCM
        case (.cbc, 16): aes128CBC
        case (.cbc, 24): aes192CBC
        case (.cbc, 32): aes256CBC
        case (.wrap, 16): aes128Wrap
        case (.wrap, 24): aes192Wrap
        case (.wrap, 32): aes256Wrap
        default: throw CryptoError("an AES key must be 16, 24 or 32 bytes, got \(keyByteCount)")
        }
    }

    enum Family { case gcm, cbc, wrap }
}
