internal import COpenSSL

/// Trusted root certificates, and OpenSSL's chain building and checking against them
/// (`X509_STORE`, `X509_STORE_CTX`, `X509_verify_cert`).
///
/// Each verification builds the path leaf → the given intermediates (untrusted, through
/// `X509_STORE_CTX_set0_untrusted`'s stack) → a root of this store, and checks, at the given
/// time (`X509_VERIFY_PARAM_set_time`): every certificate's validity period and signature;
/// basicConstraints (issuers must be CAs) and pathLenConstraint; keyUsage keyCertSign on
/// issuers; unknown critical extensions (refused); RFC 5280's stricter rules
/// (`X509_V_FLAG_X509_STRICT`); and security level 2 (`X509_VERIFY_PARAM_set_auth_level`):
/// RSA, DSA and DH keys under 2048 bits, EC keys under 224 bits and SHA-1/MD5 signatures are
/// refused anywhere in the chain. Does not: check revocation (CRL, OCSP), name constraints
/// beyond OpenSSL's defaults, or any purpose / extended key usage.
///
/// Thread-safe: the store is only read after init, and every verification has its own context.
package final class X509TrustStore: @unchecked Sendable {
    // @unchecked Sendable: X509_STORE is internally locked for lookups and never modified
    // after init; contexts are per call.
    private let store: OpaquePointer
    /// The trusted roots, in the order given.
    package let roots: [X509Cert]

    /// A store trusting exactly `roots` (at least one).
    package init(roots: [X509Cert]) throws(CryptoError) {
        guard !roots.isEmpty else { throw CryptoError("no trusted root certificate given") }
        OpenSSLErrorQueue.clear()
        guard let store = X509_STORE_new() else { throw .openSSL("cannot allocate a certificate store") }
        for root in roots where X509_STORE_add_cert(store, root.pointer) != 1 {
            X509_STORE_free(store)
            throw .openSSL("cannot add a trusted root certificate")
        }
        self.store = store
        self.roots = roots
    }

    deinit { X509_STORE_free(store) }

    /// Verifies `leaf` through `intermediates` to one of the roots at `time` (seconds since
    /// 1970), allowing at most `maximumIntermediates` certificates between leaf and root.
    ///
    /// - Returns: the path OpenSSL built, leaf first and the trusted root last (every element
    ///   is one of the certificates passed in or a root).
    /// - Throws: ``CryptoError`` naming the failing certificate by its place in the path
    ///   ("the leaf certificate", "certificate 2 of the path") and OpenSSL's reason.
    package func verify(leaf: X509Cert, intermediates: [X509Cert], at time: Int64, maximumIntermediates: Int) throws(CryptoError) -> [X509Cert] {
        OpenSSLErrorQueue.clear()
        guard let ctx = X509_STORE_CTX_new() else { throw .openSSL("cannot allocate a verification context") }
        defer { X509_STORE_CTX_free(ctx) }
        guard let untrusted = tokenkit_sk_X509_new_null() else { throw .openSSL("cannot allocate a certificate list") }
        // The stack borrows the certificates (they are owned by `intermediates`, alive until
        // this returns); it is freed without freeing them.
        defer { tokenkit_sk_X509_free(untrusted) }
        for certificate in intermediates where tokenkit_sk_X509_push(untrusted, certificate.pointer) <= 0 {
            throw .openSSL("cannot list the intermediate certificates")
        }
        guard X509_STORE_CTX_init(ctx, store, leaf.pointer, untrusted) == 1, let param = X509_STORE_CTX_get0_param(ctx) else {
            throw .openSSL("cannot set up chain verification")
        }
        X509_VERIFY_PARAM_set_flags(param, tokenkit_X509_V_FLAG_X509_STRICT())
        X509_VERIFY_PARAM_set_time(param, time_t(clamping: time))
        X509_VERIFY_PARAM_set_auth_level(param, 2)
        X509_VERIFY_PARAM_set_depth(param, Int32(clamping: max(0, maximumIntermediates)))
        let verified = withExtendedLifetime((leaf, intermediates)) { X509_verify_cert(ctx) }
        guard verified == 1 else {
            let code = X509_STORE_CTX_get_error(ctx)
            let depth = Int(X509_STORE_CTX_get_error_depth(ctx))
            let reason = X509_verify_cert_error_string(Int(code)).map { String(cString: $0) } ?? "error \(code)"
            OpenSSLErrorQueue.clear()
            throw CryptoError("\(Self.place(depth)): \(reason)")
        }
        guard let chain = X509_STORE_CTX_get1_chain(ctx) else { throw .openSSL("cannot read the verified path") }
        defer { tokenkit_sk_X509_pop_free(chain) }
        let known = [leaf] + intermediates + roots
        var path: [X509Cert] = []
        for index in 0..<tokenkit_sk_X509_num(chain) {
            let element = tokenkit_sk_X509_value(chain, index)
            guard let certificate = known.first(where: { $0.pointer == element }) else {
                throw CryptoError("the verified path holds a certificate that was not given")
            }
            path.append(certificate)
        }
        return path
    }

    /// A certificate's place in the path, for messages.
    private static func place(_ depth: Int) -> String {
        depth <= 0 ? "the leaf certificate" : "certificate \(depth + 1) of the path"
    }
}
