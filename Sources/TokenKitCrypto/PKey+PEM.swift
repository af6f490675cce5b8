internal import COpenSSL

extension PKey {
    /// Parses the first key or certificate PEM block in `pem`.
    ///
    /// Accepts `PRIVATE KEY` (PKCS#8), `RSA PRIVATE KEY` (PKCS#1), `EC PRIVATE KEY` (SEC1),
    /// `PUBLIC KEY` (SPKI), `RSA PUBLIC KEY` (PKCS#1) and `CERTIFICATE` (X.509: its public key
    /// is used; the certificate itself is not validated — no chain, dates or revocation).
    /// `EC PARAMETERS` blocks are skipped. Encrypted keys are refused.
    package convenience init(pem: String) throws(CryptoError) {
        let documents = try PEMDocument.parseAll(pem)
        guard let document = documents.first(where: { $0.label != "EC PARAMETERS" }) else {
            throw CryptoError("the PEM holds only EC parameters, no key")
        }
        let der = document.der
        switch document.label {
        case "PRIVATE KEY":
            let key = try Self.decodeDER(der, what: "PKCS#8 private key", free: EVP_PKEY_free) { d2i_AutoPrivateKey(nil, &$0, $1) }
            try self.init(taking: key, isPrivate: true)
        case "RSA PRIVATE KEY":
            let key = try Self.decodeDER(der, what: "PKCS#1 RSA private key", free: EVP_PKEY_free) { d2i_PrivateKey(EVP_PKEY_RSA, nil, &$0, $1) }
            try self.init(taking: key, isPrivate: true)
        case "EC PRIVATE KEY":
            let key = try Self.decodeDER(der, what: "SEC1 EC private key", free: EVP_PKEY_free) { d2i_PrivateKey(EVP_PKEY_EC, nil, &$0, $1) }
            try self.init(taking: key, isPrivate: true)
        case "PUBLIC KEY":
            try self.init(subjectPublicKeyInfo: der)
        case "RSA PUBLIC KEY":
            let key = try Self.decodeDER(der, what: "PKCS#1 RSA public key", free: EVP_PKEY_free) { d2i_PublicKey(EVP_PKEY_RSA, nil, &$0, $1) }
            try self.init(taking: key, isPrivate: false)
        case "CERTIFICATE":
            let certificate = try Self.decodeDER(der, what: "X.509 certificate", free: X509_free) { d2i_X509(nil, &$0, $1) }
            defer { X509_free(certificate) }
            OpenSSLErrorQueue.clear()
            guard let key = X509_get_pubkey(certificate) else { throw .openSSL("the certificate's public key is unusable") }
            try self.init(taking: key, isPrivate: false)
        default:
            throw CryptoError("unsupported PEM block \"\(document.label)\" (expected a key or a certificate)")
        }
        if isPrivate { try checkConsistency() }
    }

    /// The private key as PKCS#8 PEM (`PRIVATE KEY`). The returned string holds secret
    /// material: the caller decides where it goes.
    package func pkcs8PEM() throws(CryptoError) -> String {
        guard isPrivate else { throw CryptoError("a public key has no private PEM") }
        let bio = try MemoryBIO()
        OpenSSLErrorQueue.clear()
        guard PEM_write_bio_PrivateKey(bio.pointer, pointer, nil, nil, 0, nil, nil) == 1 else {
            throw .openSSL("cannot encode the private key")
        }
        return bio.contentsAsString()
    }

    /// The public key as SPKI PEM (`PUBLIC KEY`).
    package func publicPEM() throws(CryptoError) -> String {
        PEMDocument.encode(label: "PUBLIC KEY", der: try subjectPublicKeyInfoDER())
    }

    /// Checks that a private key's halves belong together. (The public half was already
    /// checked by ``init(taking:isPrivate:)``, as for every key.) RSA keys without CRT
    /// factors have no pairwise check.
    func checkConsistency() throws(CryptoError) {
        OpenSSLErrorQueue.clear()
        guard let ctx = EVP_PKEY_CTX_new_from_pkey(nil, pointer, nil) else { throw .openSSL("cannot check the key") }
        defer { EVP_PKEY_CTX_free(ctx) }
        if isPrivate {
            switch type {
            case .rsa, .rsaPSS:
                var factor: OpaquePointer?
                if EVP_PKEY_get_bn_param(pointer, "rsa-factor1", &factor) == 1 {
                    BN_clear_free(factor)
                    guard EVP_PKEY_pairwise_check(ctx) == 1 else { throw .openSSL("the private and public halves of the RSA key do not match") }
                }
                OpenSSLErrorQueue.clear()
            case .ec:
                guard EVP_PKEY_pairwise_check(ctx) == 1 else { throw .openSSL("the private and public halves of the EC key do not match") }
            case .ed25519, .ed448, .x25519:
                break  // the public half is always derived from the private one
            }
        }
    }
}
