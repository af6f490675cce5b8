internal import COpenSSL

extension PKey {
    /// Generates a fresh private key of `type` with OpenSSL's DRBG. RSA keys get `rsaBits`
    /// bits (at least 2048) and the public exponent 65537.
    package static func generate(_ type: AsymmetricKeyType, rsaBits: Int = 2048) throws(CryptoError) -> PKey {
        let algorithm: String
        switch type {
        case .rsa: algorithm = "RSA"
        case .rsaPSS: algorithm = "RSA-PSS"
        case .ec: algorithm = "EC"
        case .ed25519: algorithm = "ED25519"
        case .ed448: algorithm = "ED448"
        case .x25519: algorithm = "X25519"
        }
        guard rsaBits >= minimumRSABits, rsaBits <= 16384 else {
            throw CryptoError("RSA keys must have 2048 to 16384 bits")
        }
        OpenSSLErrorQueue.clear()
        guard let ctx = EVP_PKEY_CTX_new_from_name(nil, algorithm, nil) else { throw .openSSL("OpenSSL has no \(algorithm)") }
        defer { EVP_PKEY_CTX_free(ctx) }
        guard EVP_PKEY_keygen_init(ctx) == 1 else { throw .openSSL("cannot start \(algorithm) key generation") }
        switch type {
        case .rsa, .rsaPSS:
            guard EVP_PKEY_CTX_set_rsa_keygen_bits(ctx, Int32(rsaBits)) == 1 else { throw .openSSL("cannot set the RSA key size") }
        case .ec(let curve):
            guard EVP_PKEY_CTX_set_group_name(ctx, curve.groupName) == 1 else { throw .openSSL("cannot select curve \(curve.rawValue)") }
        case .ed25519, .ed448, .x25519:
            break
        }
        var key: OpaquePointer?
        guard EVP_PKEY_generate(ctx, &key) == 1, let key else { throw .openSSL("\(algorithm) key generation failed") }
        return try PKey(taking: key, isPrivate: true)
    }
}
