internal import COpenSSL

/// An owned OpenSSL `EVP_PKEY` of one of the types JWS uses.
///
/// Guarantees: the pointer is freed exactly once, in `deinit`; the key's type is checked at
/// construction (only RSA of at least 2048 bits without the ROCA fingerprint, RSA-PSS, the
/// four JWS curves, Ed25519 and Ed448 keys that are neither of small order nor
/// non-canonically encoded, and — for JWE key agreement — X25519 are accepted); the key is
/// never mutated afterwards. `description` never shows key material.
package final class PKey: @unchecked Sendable, CustomStringConvertible {
    // @unchecked Sendable: the EVP_PKEY is immutable after init. OpenSSL 3 allows concurrent
    // use of one EVP_PKEY from several threads as long as each uses its own EVP_PKEY_CTX /
    // EVP_MD_CTX; every operation here takes one from `contexts`, which hands each context
    // to one thread at a time.
    let pointer: OpaquePointer
    /// The key's type.
    package let type: AsymmetricKeyType
    /// Whether the private half is present.
    package let isPrivate: Bool
    /// Size in bits (the modulus for RSA, the field for EC).
    package let bits: Int
    /// Prepared signing and verifying contexts, reused across operations (see
    /// ``ContextPool`` and `PKey+Signature.swift`).
    let contexts = ContextPool(kinds: SignatureScheme.contextKinds) { kind, ctx in
        if SignatureScheme.usesDigestContext(kind: kind) { EVP_MD_CTX_free(ctx) } else { EVP_PKEY_CTX_free(ctx) }
    }

    /// The smallest RSA modulus TokenKit accepts.
    package static let minimumRSABits = 2048

    /// Takes ownership of `pointer` (freeing it if the key is refused).
    ///
    /// Every key, whatever its source (PEM, DER, certificate, JWK components, generation),
    /// public or private, passes the same gate on its public half: a supported type and
    /// curve, OpenSSL's public-key check (`EVP_PKEY_public_check`: for EC the point is on
    /// the curve, for RSA the modulus and exponent are plausible), TokenKit's own RSA rules
    /// (odd modulus, odd public exponent greater than 1, at least ``minimumRSABits``, no
    /// ROCA fingerprint) and Edwards rules (``EdwardsPointCheck``: a canonical encoding of a
    /// curve point that is not of small order). A refused key is freed here, on every path.
    init(taking pointer: OpaquePointer, isPrivate: Bool) throws(CryptoError) {
        let owned = OwnedPKey(pointer)
        let (type, bits) = try Self.validatePublicHalf(pointer)
        self.pointer = owned.release()
        self.type = type
        self.isPrivate = isPrivate
        self.bits = bits
    }

    /// The checks of ``init(taking:isPrivate:)``; never frees `pointer`.
    private static func validatePublicHalf(_ pointer: OpaquePointer) throws(CryptoError) -> (AsymmetricKeyType, Int) {
        let type: AsymmetricKeyType
        switch EVP_PKEY_get_base_id(pointer) {
        case EVP_PKEY_RSA: type = .rsa
        case EVP_PKEY_RSA_PSS: type = .rsaPSS
        case EVP_PKEY_ED25519: type = .ed25519
        case EVP_PKEY_ED448: type = .ed448
        case EVP_PKEY_X25519: type = .x25519
        case EVP_PKEY_EC:
            var name = [CChar](repeating: 0, count: 64)
            var length = 0
            guard EVP_PKEY_get_utf8_string_param(pointer, OSSL_PKEY_PARAM_GROUP_NAME, &name, name.count, &length) == 1,
                  let curve = ECCurve(openSSLGroupName: String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self))
            else {
                OpenSSLErrorQueue.clear()
                throw CryptoError("unsupported EC curve (JWS uses P-256, P-384, P-521 and secp256k1)")
            }
            type = .ec(curve)
        default:
            throw CryptoError("unsupported key type (JWS uses RSA, EC, Ed25519 and Ed448 keys; JWE also X25519)")
        }
        let bits = Int(EVP_PKEY_get_bits(pointer))
        switch type {
        case .ed25519: try EdwardsPointCheck.check(try rawPublicKey(of: pointer), curve: .ed25519)
        case .ed448: try EdwardsPointCheck.check(try rawPublicKey(of: pointer), curve: .ed448)
        default: break
        }
        if type == .rsa || type == .rsaPSS {
            guard bits >= Self.minimumRSABits else {
                throw CryptoError("RSA key of \(bits) bits refused (at least \(Self.minimumRSABits) bits are required)")
            }
            try RSAPublicParameters.check(pointer)
            if ROCAFingerprint.matches(rsaKey: pointer) {
                throw CryptoError("RSA key refused: its modulus has the ROCA fingerprint (CVE-2017-15361), so it can be factored")
            }
        }
        OpenSSLErrorQueue.clear()
        let ctx = EVP_PKEY_CTX_new_from_pkey(nil, pointer, nil)
        guard let ctx else { throw .openSSL("cannot check the key") }
        defer { EVP_PKEY_CTX_free(ctx) }
        // Every supported curve has cofactor 1, so a point that is on the curve and not the
        // point at infinity has the group's order: the quick check (range and on-curve) is
        // the whole check, and it skips the scalar multiplication by the order that
        // EVP_PKEY_public_check adds, which costs as much as the ECDH a JWE epk is used for.
        let checked: Int32
        if case .ec = type { checked = EVP_PKEY_public_check_quick(ctx) } else { checked = EVP_PKEY_public_check(ctx) }
        guard checked == 1 else { throw .openSSL("the public key is invalid") }
        return (type, bits)
    }

    deinit { EVP_PKEY_free(pointer) }

    package var description: String { "PKey(\(type), \(isPrivate ? "private" : "public"))" }

    /// The public half as its own key (a copy through SPKI DER).
    package func publicKey() throws(CryptoError) -> PKey {
        guard isPrivate else { return self }
        return try PKey(subjectPublicKeyInfo: subjectPublicKeyInfoDER())
    }

    /// The SubjectPublicKeyInfo DER of the public half.
    package func subjectPublicKeyInfoDER() throws(CryptoError) -> [UInt8] {
        OpenSSLErrorQueue.clear()
        var out: UnsafeMutablePointer<UInt8>?
        let length = i2d_PUBKEY(pointer, &out)
        guard length > 0, let out else { throw .openSSL("cannot encode the public key") }
        defer { tokenkit_OPENSSL_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: Int(length)))
    }

    /// Parses a SubjectPublicKeyInfo DER structure; trailing bytes are refused.
    package convenience init(subjectPublicKeyInfo der: [UInt8]) throws(CryptoError) {
        let key = try Self.decodeDER(der, what: "public key (SPKI)", free: EVP_PKEY_free) { d2i_PUBKEY(nil, &$0, $1) }
        try self.init(taking: key, isPrivate: false)
    }

    /// Runs a d2i-style decoder over all of `der`, requiring it to consume every byte. When
    /// bytes are left over, the decoded object is released with `free` before throwing, so
    /// the caller owns the result only when this returns.
    static func decodeDER(
        _ der: [UInt8], what: String, free: (OpaquePointer) -> Void,
        _ decode: (inout UnsafePointer<UInt8>?, Int) -> OpaquePointer?
    ) throws(CryptoError) -> OpaquePointer {
        OpenSSLErrorQueue.clear()
        let result: (OpaquePointer?, Int) = der.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            let object = decode(&cursor, buffer.count)
            let consumed = (cursor.flatMap { end in buffer.baseAddress.map { end - $0 } }) ?? 0
            return (object, consumed)
        }
        guard let object = result.0 else { throw .openSSL("malformed \(what)") }
        guard result.1 == der.count else {
            free(object)
            OpenSSLErrorQueue.clear()
            throw CryptoError("malformed \(what): \(der.count - result.1) trailing bytes")
        }
        return object
    }
}
