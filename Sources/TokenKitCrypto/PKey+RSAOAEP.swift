internal import COpenSSL

/// The digests RSAES-OAEP is used with in JWE: SHA-1 (`RSA-OAEP`) and SHA-256
/// (`RSA-OAEP-256`), for both the label hash and MGF1 (RFC 7518 §4.3).
package enum OAEPDigest: Sendable {
    case sha1
    case sha256

    fileprivate var md: OpaquePointer {
        switch self {
        case .sha1: OAEPDigests.shared.sha1
        case .sha256: MessageDigest.sha256.md
        }
    }
}

extension PKey {
    /// Encrypts `plaintext` (a content key) to this RSA key with RSAES-OAEP.
    package func encryptOAEP(_ plaintext: SecureBytes, digest: OAEPDigest) throws(CryptoError) -> [UInt8] {
        let ctx = try oaepContext(digest: digest, decrypt: false)
        defer { EVP_PKEY_CTX_free(ctx) }
        var length = 0
        let sized = plaintext.withUnsafeBytes {
            EVP_PKEY_encrypt(ctx, nil, &length, $0.baseAddress?.assumingMemoryBound(to: UInt8.self), $0.count) == 1
        }
        guard sized else { throw .openSSL("RSA-OAEP encryption failed") }
        var out = [UInt8](repeating: 0, count: length)
        let ok = plaintext.withUnsafeBytes { input in
            out.withUnsafeMutableBufferPointer {
                EVP_PKEY_encrypt(ctx, $0.baseAddress, &length, input.baseAddress?.assumingMemoryBound(to: UInt8.self), input.count) == 1
            }
        }
        guard ok else { throw .openSSL("RSA-OAEP encryption failed") }
        return Array(out.prefix(length))
    }

    /// Decrypts `ciphertext` with this RSA private key and RSAES-OAEP. Every failure — a
    /// ciphertext of the wrong length, a wrong key, bad OAEP padding — is the same
    /// ``CryptoError`` (`"RSA-OAEP decryption failed"`), with OpenSSL's queue discarded, so no
    /// failure can be told from another.
    package func decryptOAEP(_ ciphertext: [UInt8], digest: OAEPDigest) throws(CryptoError) -> SecureBytes {
        let failure = CryptoError("RSA-OAEP decryption failed")
        guard isPrivate else { throw CryptoError("RSA-OAEP decryption needs the private key") }
        let ctx = try oaepContext(digest: digest, decrypt: true)
        defer { EVP_PKEY_CTX_free(ctx) }
        let modulusBytes = (bits + 7) / 8
        guard ciphertext.count == modulusBytes else { throw failure }
        var length = modulusBytes
        let buffer = try SecureBytes.filling(count: modulusBytes) { (output) throws(CryptoError) in
            let ok = ciphertext.withUnsafeBufferPointer { input in
                EVP_PKEY_decrypt(ctx, output.baseAddress?.assumingMemoryBound(to: UInt8.self), &length, input.baseAddress, input.count) == 1
            }
            guard ok else {
                OpenSSLErrorQueue.clear()
                throw failure
            }
        }
        return buffer.withUnsafeBytes { SecureBytes($0.prefix(length)) }
    }

    /// A new context of this RSA key set up for OAEP with `digest` (label hash and MGF1).
    private func oaepContext(digest: OAEPDigest, decrypt: Bool) throws(CryptoError) -> OpaquePointer {
        guard type == .rsa else { throw CryptoError("RSA-OAEP needs an RSA key, not \(type)") }
        OpenSSLErrorQueue.clear()
        guard let ctx = EVP_PKEY_CTX_new_from_pkey(nil, pointer, nil) else { throw .openSSL("cannot allocate a key context") }
        let ready = (decrypt ? EVP_PKEY_decrypt_init(ctx) : EVP_PKEY_encrypt_init(ctx)) == 1
            && tokenkit_EVP_PKEY_CTX_set_rsa_padding(ctx, tokenkit_RSA_PKCS1_OAEP_PADDING()) == 1
            && tokenkit_EVP_PKEY_CTX_set_rsa_oaep_md(ctx, digest.md) == 1
            && tokenkit_EVP_PKEY_CTX_set_rsa_mgf1_md(ctx, digest.md) == 1
        guard ready else {
            EVP_PKEY_CTX_free(ctx)
            throw .openSSL("cannot set up RSA-OAEP")
        }
        return ctx
    }
}

/// SHA-1, fetched once, for RSA-OAEP only (never a signature digest).
private final class OAEPDigests: @unchecked Sendable {
    // @unchecked Sendable: an EVP_MD is immutable once fetched.
    static let shared = OAEPDigests()
    let sha1: OpaquePointer

    private init() {
        guard let md = EVP_MD_fetch(nil, "SHA1", nil) else { preconditionFailure("OpenSSL's default provider has no SHA1") }
        sha1 = md
    }

    deinit { EVP_MD_free(sha1) }
}
