internal import COpenSSL

/// AES-CBC with HMAC-SHA2, the authenticated encryption of RFC 7518 §5.2 (JWE's
/// A128CBC-HS256, A192CBC-HS384, A256CBC-HS512), built from OpenSSL's AES-CBC and HMAC.
///
/// The key K (32, 48 or 64 bytes) splits into MAC_KEY (first half) and ENC_KEY (second
/// half); the tag is the first half of HMAC(MAC_KEY, AAD || IV || ciphertext || AL), AL being
/// the AAD's length in bits as a 64-bit big-endian number.
///
/// Guarantees: ``open(ciphertext:tag:key:iv:additionalData:)`` checks the whole tag, in
/// constant time (`CRYPTO_memcmp`), *before* decrypting, so a padding check never runs on
/// unauthenticated data; a wrong key, a wrong tag and bad padding all throw the same
/// ``CryptoError`` (``failure``); tags of any other length than half the MAC are refused
/// (no truncation). Does not: choose IVs beyond ``randomIV()``.
package enum AESCBCHMAC {
    /// The one error of a failed ``open(ciphertext:tag:key:iv:additionalData:)``.
    package static let failure = "authentication failed"
    /// The IV length (one AES block).
    package static let ivByteCount = 16

    /// A fresh random 16-byte IV.
    package static func randomIV() throws(CryptoError) -> [UInt8] { try RandomBytes.generate(count: ivByteCount) }

    /// The tag length for a key of `keyByteCount` bytes (half the key), or `nil` for a length
    /// that is not 32, 48 or 64.
    package static func tagByteCount(forKeyByteCount keyByteCount: Int) -> Int? {
        [32, 48, 64].contains(keyByteCount) ? keyByteCount / 2 : nil
    }

    /// Encrypts `plaintext` (PKCS#7 padding) and authenticates it with `additionalData`.
    package static func seal(
        _ plaintext: some ContiguousBytesLike, key: SecureBytes, iv: [UInt8], additionalData: [UInt8]
    ) throws(CryptoError) -> (ciphertext: [UInt8], tag: [UInt8]) {
        let (macKey, encryptionKey, tagLength) = try split(key, iv: iv)
        let context = try CipherContext()
        try context.initialize(try FetchedCipher.aes(.cbc, keyByteCount: encryptionKey.count), encrypt: true, key: encryptionKey, iv: iv)
        var ciphertext: [UInt8] = []
        var length = 0
        try CryptoError.rethrowing("AES-CBC failed") {
            try plaintext.withBytes { input in
                ciphertext = [UInt8](repeating: 0, count: input.count + ivByteCount)
                length = try ciphertext.withUnsafeMutableBytes { output in
                    let written = try context.update(input: input, output: output)
                    return written + (try context.finish(output: UnsafeMutableRawBufferPointer(rebasing: output[written...]), failure: "AES-CBC failed"))
                }
            }
        }
        ciphertext.removeSubrange(length...)
        let mac = try macKey.authenticationCode(forConcatenationOf: [additionalData, iv, ciphertext, lengthInBits(additionalData)])
        return (ciphertext, Array(mac.bytes.prefix(tagLength)))
    }

    /// Checks `tag` and, only when it matches, decrypts `ciphertext`; throws ``failure`` when
    /// the key, IV, additional data, ciphertext, tag or padding is wrong.
    package static func open(
        ciphertext: [UInt8], tag: [UInt8], key: SecureBytes, iv: [UInt8], additionalData: [UInt8]
    ) throws(CryptoError) -> SecureBytes {
        let (macKey, encryptionKey, tagLength) = try split(key, iv: iv)
        guard tag.count == tagLength else { throw CryptoError("the tag must be \(tagLength) bytes, got \(tag.count)") }
        guard !ciphertext.isEmpty, ciphertext.count % ivByteCount == 0 else {
            throw CryptoError("AES-CBC ciphertext must be whole 16-byte blocks")
        }
        let mac = try macKey.authenticationCode(forConcatenationOf: [additionalData, iv, ciphertext, lengthInBits(additionalData)])
        let matches = mac.withUnsafeBytes { expected in
            tag.withUnsafeBytes { given in CRYPTO_memcmp(expected.baseAddress, given.baseAddress, tagLength) == 0 }
        }
        guard matches else { throw CryptoError(failure) }
        let context = try CipherContext()
        try context.initialize(try FetchedCipher.aes(.cbc, keyByteCount: encryptionKey.count), encrypt: false, key: encryptionKey, iv: iv)
        var length = 0
        let padded = try SecureBytes.filling(count: ciphertext.count + ivByteCount) { (output) throws(CryptoError) in
            let written: Int
            do {
                written = try ciphertext.withUnsafeBytes { (input) throws(CryptoError) in try context.update(input: input, output: output) }
                length = written + (try context.finish(output: UnsafeMutableRawBufferPointer(rebasing: output[written...]), failure: failure))
            } catch {
                throw CryptoError(failure)
            }
        }
        return padded.withUnsafeBytes { SecureBytes($0.prefix(length)) }
    }

    /// MAC_KEY (as a ready HMAC key), ENC_KEY and the tag length, after checking the sizes.
    private static func split(_ key: SecureBytes, iv: [UInt8]) throws(CryptoError) -> (HMACKey, SecureBytes, Int) {
        guard let tagLength = tagByteCount(forKeyByteCount: key.count) else {
            throw CryptoError("an AES-CBC-HMAC key must be 32, 48 or 64 bytes, got \(key.count)")
        }
        guard iv.count == ivByteCount else { throw CryptoError("an AES-CBC IV must be \(ivByteCount) bytes") }
        let digest: MessageDigest = key.count == 32 ? .sha256 : key.count == 48 ? .sha384 : .sha512
        let half = key.count / 2
        let macKey = key.withUnsafeBytes { SecureBytes($0.prefix(half)) }
        let encryptionKey = key.withUnsafeBytes { SecureBytes($0.suffix(half)) }
        return (try HMACKey(secret: macKey, digest: digest), encryptionKey, tagLength)
    }

    /// AL: the additional data's length in bits, 64-bit big-endian.
    private static func lengthInBits(_ additionalData: [UInt8]) -> [UInt8] {
        let bits = UInt64(additionalData.count) &* 8
        return (0..<8).map { UInt8(truncatingIfNeeded: bits >> (56 - 8 * $0)) }
    }
}
