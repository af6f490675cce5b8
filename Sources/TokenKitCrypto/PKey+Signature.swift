internal import COpenSSL

extension PKey {
    /// Signs `message` with this private key. ECDSA signatures come back in the JWS form
    /// (fixed-length r || s), not DER.
    ///
    /// The message is hashed with the scheme's digest and the hash signed with a pooled,
    /// already-configured `EVP_PKEY_CTX` (EdDSA: a pooled `EVP_MD_CTX`, as Ed25519 has no
    /// pre-hashed form), so no signing context is set up per call in steady state.
    package func sign(_ message: some ContiguousBytesLike, scheme: SignatureScheme) throws(CryptoError) -> [UInt8] {
        guard isPrivate else { throw CryptoError("a public key cannot sign") }
        OpenSSLErrorQueue.clear()
        let kind = scheme.contextKind(signing: true)
        var signature: [UInt8] = []
        if case .eddsa = scheme {
            guard let mdctx = contexts.take(kind) ?? EVP_MD_CTX_new() else { throw .openSSL("cannot allocate a digest context") }
            var length = 0
            let ok = message.withBytes { input -> Bool in
                let bytes = input.baseAddress?.assumingMemoryBound(to: UInt8.self)
                guard EVP_DigestSignInit_ex(mdctx, nil, nil, nil, nil, pointer, nil) == 1,
                      EVP_DigestSign(mdctx, nil, &length, bytes, input.count) == 1 else { return false }
                signature = [UInt8](repeating: 0, count: length)
                return signature.withUnsafeMutableBufferPointer {
                    EVP_DigestSign(mdctx, $0.baseAddress, &length, bytes, input.count) == 1
                }
            }
            guard ok else {
                EVP_MD_CTX_free(mdctx)
                throw .openSSL("signing failed")
            }
            contexts.put(kind, mdctx)
            signature.removeSubrange(length...)
            return signature
        }
        guard let digest = scheme.digest else { throw CryptoError("no digest for this scheme") }
        let pctx: OpaquePointer
        if let pooled = contexts.take(kind) { pctx = pooled } else { pctx = try newPKeyContext(scheme, signing: true) }
        var length = 0
        let ok = withUnsafeTemporaryAllocation(byteCount: 64, alignment: 16) { hash -> Bool in
            var hashLength: UInt32 = 0
            let hashed = message.withBytes { input in
                EVP_Digest(input.baseAddress, input.count, hash.baseAddress?.assumingMemoryBound(to: UInt8.self), &hashLength, digest.md, nil)
            }
            let h = hash.baseAddress?.assumingMemoryBound(to: UInt8.self)
            guard hashed == 1, EVP_PKEY_sign(pctx, nil, &length, h, Int(hashLength)) == 1 else { return false }
            signature = [UInt8](repeating: 0, count: length)
            return signature.withUnsafeMutableBufferPointer {
                EVP_PKEY_sign(pctx, $0.baseAddress, &length, h, Int(hashLength)) == 1
            }
        }
        guard ok else {
            EVP_PKEY_CTX_free(pctx)
            throw .openSSL("signing failed")
        }
        contexts.put(kind, pctx)
        signature.removeSubrange(length...)
        if case .ecdsa = scheme, case .ec(let curve) = type {
            return try ECDSASignatureForm.rawFromDER(signature, curve: curve)
        }
        return signature
    }

    /// Checks `signature` over `message`. ECDSA signatures must be in the JWS form; a DER
    /// signature, a wrong length, or r or s equal to zero or not below the group order are
    /// reported as invalid with the reason, before OpenSSL is asked.
    ///
    /// Like ``sign(_:scheme:)``, this uses pooled contexts and stack buffers: a valid
    /// signature is checked without any heap allocation by TokenKit in steady state.
    package func verify(
        _ signature: some ContiguousBytesLike, for message: some ContiguousBytesLike, scheme: SignatureScheme
    ) -> SignatureCheck {
        if case .ecdsa = scheme {
            guard case .ec(let curve) = type else { return .invalid(reason: "ECDSA needs an EC key") }
            let result = signature.withBytes { raw in
                ECDSASignatureForm.withDER(raw, curve: curve) { der in verifyPrepared(der, for: message, scheme: scheme) }
            }
            switch result {
            case .success(let check): return check
            case .failure(let reason): return .invalid(reason: reason.message)
            }
        }
        return signature.withBytes { verifyPrepared($0, for: message, scheme: scheme) }
    }

    /// Verifies an OpenSSL-form (DER for ECDSA) signature.
    private func verifyPrepared(_ signature: UnsafeRawBufferPointer, for message: some ContiguousBytesLike, scheme: SignatureScheme) -> SignatureCheck {
        OpenSSLErrorQueue.clear()
        let kind = scheme.contextKind(signing: false)
        let sig = signature.baseAddress?.assumingMemoryBound(to: UInt8.self)
        let rc: Int32
        if case .eddsa = scheme {
            guard let mdctx = contexts.take(kind) ?? EVP_MD_CTX_new() else { return .invalid(reason: "cannot allocate a digest context") }
            guard EVP_DigestVerifyInit_ex(mdctx, nil, nil, nil, nil, pointer, nil) == 1 else {
                EVP_MD_CTX_free(mdctx)
                OpenSSLErrorQueue.clear()
                return .invalid(reason: "the key cannot verify this algorithm")
            }
            rc = message.withBytes { input in
                EVP_DigestVerify(mdctx, sig, signature.count, input.baseAddress?.assumingMemoryBound(to: UInt8.self), input.count)
            }
            contexts.put(kind, mdctx)
        } else {
            guard let digest = scheme.digest else { return .invalid(reason: "the key cannot verify this algorithm") }
            let pctx: OpaquePointer
            if let pooled = contexts.take(kind) {
                pctx = pooled
            } else {
                do { pctx = try newPKeyContext(scheme, signing: false) } catch {
                    OpenSSLErrorQueue.clear()
                    return .invalid(reason: "the key cannot verify this algorithm")
                }
            }
            rc = withUnsafeTemporaryAllocation(byteCount: 64, alignment: 16) { hash -> Int32 in
                var hashLength: UInt32 = 0
                let hashed = message.withBytes { input in
                    EVP_Digest(input.baseAddress, input.count, hash.baseAddress?.assumingMemoryBound(to: UInt8.self), &hashLength, digest.md, nil)
                }
                guard hashed == 1 else { return 0 }
                return EVP_PKEY_verify(pctx, sig, signature.count, hash.baseAddress?.assumingMemoryBound(to: UInt8.self), Int(hashLength))
            }
            // A failed verification leaves the context usable (it holds no per-message state).
            contexts.put(kind, pctx)
        }
        OpenSSLErrorQueue.clear()
        return rc == 1 ? .valid : .invalid(reason: "signature does not match")
    }

    /// A new `EVP_PKEY_CTX` for this key, initialised to sign or verify pre-hashed messages
    /// with `scheme` (digest and, for PSS, padding, salt length and MGF1 digest set).
    private func newPKeyContext(_ scheme: SignatureScheme, signing: Bool) throws(CryptoError) -> OpaquePointer {
        guard let digest = scheme.digest else { throw CryptoError("no digest for this scheme") }
        guard let pctx = EVP_PKEY_CTX_new_from_pkey(nil, pointer, nil) else { throw .openSSL("cannot allocate a key context") }
        let initialised = signing ? EVP_PKEY_sign_init(pctx) : EVP_PKEY_verify_init(pctx)
        guard initialised == 1, EVP_PKEY_CTX_set_signature_md(pctx, digest.md) == 1 else {
            EVP_PKEY_CTX_free(pctx)
            throw .openSSL(signing ? "cannot start signing" : "cannot start verifying")
        }
        do { try configurePadding(pctx, scheme) } catch {
            EVP_PKEY_CTX_free(pctx)
            throw error
        }
        return pctx
    }

    private func configurePadding(_ pctx: OpaquePointer?, _ scheme: SignatureScheme) throws(CryptoError) {
        guard case .rsaPSS(let digest) = scheme else { return }
        guard tokenkit_EVP_PKEY_CTX_set_rsa_padding(pctx, tokenkit_RSA_PKCS1_PSS_PADDING()) == 1,
              tokenkit_EVP_PKEY_CTX_set_rsa_pss_saltlen(pctx, tokenkit_RSA_PSS_SALTLEN_DIGEST()) == 1,
              tokenkit_EVP_PKEY_CTX_set_rsa_mgf1_md(pctx, digest.md) == 1
        else { throw .openSSL("cannot configure RSA-PSS") }
    }
}

/// Conversions between the JWS ECDSA signature form (r || s) and DER (what OpenSSL uses).
package enum ECDSASignatureForm {
    /// DER `ECDSA-Sig-Value` from a JWS signature, after checking its length and that
    /// 0 < r < n and 0 < s < n.
    package static func derFromRaw(_ raw: UnsafeRawBufferPointer, curve: ECCurve) -> Result<[UInt8], CryptoError> {
        withDER(raw, curve: curve) { Array($0) }
    }

    /// Checks a JWS signature as ``derFromRaw(_:curve:)`` does and calls `body` with its DER
    /// form, built in a stack buffer (no heap allocation).
    static func withDER<R>(_ raw: UnsafeRawBufferPointer, curve: ECCurve, _ body: (UnsafeRawBufferPointer) -> R) -> Result<R, CryptoError> {
        let size = curve.coordinateSize
        guard raw.count == 2 * size else {
            let looksDER = raw.first == 0x30
            return .failure(CryptoError("ECDSA signature for \(curve.rawValue) must be \(2 * size) bytes (r || s), got \(raw.count)\(looksDER ? "; DER-encoded signatures are not JWS signatures" : "")"))
        }
        let r = UnsafeRawBufferPointer(rebasing: raw[0..<size]), s = UnsafeRawBufferPointer(rebasing: raw[size...])
        let order = curve.order
        func problem(_ value: UnsafeRawBufferPointer, _ name: String) -> CryptoError? {
            if value.allSatisfy({ $0 == 0 }) { return CryptoError("ECDSA signature \(name) is zero") }
            let below = order.withUnsafeBytes { value.lexicographicallyPrecedes($0) }
            return below ? nil : CryptoError("ECDSA signature \(name) is not below the group order")
        }
        if let failure = problem(r, "r") ?? problem(s, "s") { return .failure(failure) }
        // 2 × (tag, up to 2 length bytes, leading zero, 66 bytes) + sequence header: < 160 bytes.
        return .success(withUnsafeTemporaryAllocation(byteCount: 160, alignment: 1) { buffer in
            var content = 0
            func integerLength(_ v: UnsafeRawBufferPointer) -> (skip: Int, pad: Int, length: Int) {
                var skip = 0
                while skip < v.count - 1, v[skip] == 0 { skip += 1 }
                let pad = v[skip] & 0x80 != 0 ? 1 : 0
                return (skip, pad, v.count - skip + pad)
            }
            let ri = integerLength(r), si = integerLength(s)
            func headerLength(_ n: Int) -> Int { n < 0x80 ? 2 : n < 0x100 ? 3 : 4 }
            content = headerLength(ri.length) + ri.length + headerLength(si.length) + si.length
            var at = 0
            func put(_ byte: UInt8) { buffer[at] = byte; at += 1 }
            func putHeader(_ tag: UInt8, _ n: Int) {
                put(tag)
                if n < 0x80 { put(UInt8(n)) } else if n < 0x100 { put(0x81); put(UInt8(n)) } else { put(0x82); put(UInt8(n >> 8)); put(UInt8(n & 0xFF)) }
            }
            putHeader(0x30, content)
            func putInteger(_ v: UnsafeRawBufferPointer, _ info: (skip: Int, pad: Int, length: Int)) {
                putHeader(0x02, info.length)
                if info.pad == 1 { put(0) }
                for i in info.skip..<v.count { put(v[i]) }
            }
            putInteger(r, ri)
            putInteger(s, si)
            return body(UnsafeRawBufferPointer(rebasing: buffer[0..<at]))
        })
    }

    /// The JWS form from OpenSSL's DER signature.
    static func rawFromDER(_ der: [UInt8], curve: ECCurve) throws(CryptoError) -> [UInt8] {
        if let raw = rawFromSimpleDER(der, size: curve.coordinateSize) { return raw }
        return try rawFromDERWithOpenSSL(der, curve: curve)
    }

    /// Reads `SEQUENCE { INTEGER r, INTEGER s }` as OpenSSL writes it (definite lengths,
    /// minimal positive integers) without allocating OpenSSL objects; `nil` for anything
    /// else (then OpenSSL's decoder is used).
    private static func rawFromSimpleDER(_ der: [UInt8], size: Int) -> [UInt8]? {
        var i = 0
        func length() -> Int? {
            guard i < der.count else { return nil }
            let first = der[i]
            i += 1
            if first < 0x80 { return Int(first) }
            guard first == 0x81, i < der.count, der[i] >= 0x80 else { return nil }
            i += 1
            return Int(der[i - 1])
        }
        guard der.count > 2, der[0] == 0x30 else { return nil }
        i = 1
        guard let total = length(), i + total == der.count else { return nil }
        var out = [UInt8](repeating: 0, count: 2 * size)
        for part in 0..<2 {
            guard i < der.count, der[i] == 0x02 else { return nil }
            i += 1
            guard var n = length(), n > 0, i + n <= der.count, der[i] & 0x80 == 0 else { return nil }
            var start = i
            while n > size, der[start] == 0 { start += 1; n -= 1 }
            guard n <= size else { return nil }
            for k in 0..<n { out[part * size + size - n + k] = der[start + k] }
            i = start + n
        }
        return i == der.count ? out : nil
    }

    private static func rawFromDERWithOpenSSL(_ der: [UInt8], curve: ECCurve) throws(CryptoError) -> [UInt8] {
        let sig = try PKey.decodeDER(der, what: "ECDSA signature", release: { ECDSA_SIG_free($0) }) { d2i_ECDSA_SIG(nil, &$0, $1) }
        defer { ECDSA_SIG_free(sig) }
        var r: OpaquePointer?, s: OpaquePointer?
        ECDSA_SIG_get0(sig, &r, &s)
        let size = curve.coordinateSize
        var out = [UInt8](repeating: 0, count: 2 * size)
        let ok = out.withUnsafeMutableBufferPointer { buffer -> Bool in
            guard let base = buffer.baseAddress else { return false }
            return BN_bn2binpad(r, base, Int32(size)) == Int32(size) && BN_bn2binpad(s, base + size, Int32(size)) == Int32(size)
        }
        guard ok else { throw CryptoError("ECDSA signature does not fit the curve") }
        return out
    }
}
