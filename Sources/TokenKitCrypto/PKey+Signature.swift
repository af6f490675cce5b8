internal import COpenSSL

extension PKey {
    /// Signs `message` with this private key. ECDSA signatures come back in the JWS form
    /// (fixed-length r || s), not DER.
    package func sign(_ message: some ContiguousBytesLike, scheme: SignatureScheme) throws(CryptoError) -> [UInt8] {
        guard isPrivate else { throw CryptoError("a public key cannot sign") }
        OpenSSLErrorQueue.clear()
        guard let mdctx = EVP_MD_CTX_new() else { throw .openSSL("cannot allocate a digest context") }
        defer { EVP_MD_CTX_free(mdctx) }
        var pctx: OpaquePointer?
        guard EVP_DigestSignInit(mdctx, &pctx, scheme.digest?.md, nil, pointer) == 1 else {
            throw .openSSL("cannot start signing")
        }
        try configurePadding(pctx, scheme)
        var length = 0
        let ok = message.withBytes { input -> Bool in
            guard EVP_DigestSign(mdctx, nil, &length, input.baseAddress?.assumingMemoryBound(to: UInt8.self), input.count) == 1 else { return false }
            return true
        }
        guard ok else { throw .openSSL("signing failed") }
        var signature = [UInt8](repeating: 0, count: length)
        let signed = message.withBytes { input in
            signature.withUnsafeMutableBufferPointer {
                EVP_DigestSign(mdctx, $0.baseAddress, &length, input.baseAddress?.assumingMemoryBound(to: UInt8.self), input.count)
            }
        }
        guard signed == 1 else { throw .openSSL("signing failed") }
        signature.removeSubrange(length...)
        if case .ecdsa = scheme, case .ec(let curve) = type {
            return try ECDSASignatureForm.rawFromDER(signature, curve: curve)
        }
        return signature
    }

    /// Checks `signature` over `message`. ECDSA signatures must be in the JWS form; a DER
    /// signature, a wrong length, or r or s equal to zero or not below the group order are
    /// reported as invalid with the reason, before OpenSSL is asked.
    package func verify(
        _ signature: some ContiguousBytesLike, for message: some ContiguousBytesLike, scheme: SignatureScheme
    ) -> SignatureCheck {
        var derSignature: [UInt8]? = nil
        if case .ecdsa = scheme {
            guard case .ec(let curve) = type else { return .invalid(reason: "ECDSA needs an EC key") }
            switch signature.withBytes({ ECDSASignatureForm.derFromRaw($0, curve: curve) }) {
            case .success(let der): derSignature = der
            case .failure(let reason): return .invalid(reason: reason.message)
            }
        }
        OpenSSLErrorQueue.clear()
        guard let mdctx = EVP_MD_CTX_new() else { return .invalid(reason: "cannot allocate a digest context") }
        defer { EVP_MD_CTX_free(mdctx) }
        var pctx: OpaquePointer?
        guard EVP_DigestVerifyInit(mdctx, &pctx, scheme.digest?.md, nil, pointer) == 1 else {
            OpenSSLErrorQueue.clear()
            return .invalid(reason: "the key cannot verify this algorithm")
        }
        do { try configurePadding(pctx, scheme) } catch { return .invalid(reason: error.message) }
        let rc: Int32 = message.withBytes { input in
            let check = { (sig: UnsafeRawBufferPointer) in
                EVP_DigestVerify(mdctx, sig.baseAddress?.assumingMemoryBound(to: UInt8.self), sig.count,
                                 input.baseAddress?.assumingMemoryBound(to: UInt8.self), input.count)
            }
            if let derSignature { return derSignature.withUnsafeBytes(check) }
            return signature.withBytes(check)
        }
        OpenSSLErrorQueue.clear()
        return rc == 1 ? .valid : .invalid(reason: "signature does not match")
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
        let size = curve.coordinateSize
        guard raw.count == 2 * size else {
            let looksDER = raw.first == 0x30
            return .failure(CryptoError("ECDSA signature for \(curve.rawValue) must be \(2 * size) bytes (r || s), got \(raw.count)\(looksDER ? "; DER-encoded signatures are not JWS signatures" : "")"))
        }
        let r = Array(raw[0..<size]), s = Array(raw[size...])
        let order = curve.order
        for (name, value) in [("r", r), ("s", s)] {
            if value.allSatisfy({ $0 == 0 }) { return .failure(CryptoError("ECDSA signature \(name) is zero")) }
            if !value.lexicographicallyPrecedes(order) { return .failure(CryptoError("ECDSA signature \(name) is not below the group order")) }
        }
        return .success(derSequence(integer(r) + integer(s)))
    }

    /// The JWS form from OpenSSL's DER signature.
    static func rawFromDER(_ der: [UInt8], curve: ECCurve) throws(CryptoError) -> [UInt8] {
        let sig = try PKey.decodeDER(der, what: "ECDSA signature") { d2i_ECDSA_SIG(nil, &$0, $1) }
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

    private static func integer(_ bigEndian: [UInt8]) -> [UInt8] {
        var bytes = Array(bigEndian.drop(while: { $0 == 0 }))
        if bytes.isEmpty { bytes = [0] }
        if bytes[0] & 0x80 != 0 { bytes.insert(0, at: 0) }
        return [0x02] + length(bytes.count) + bytes
    }

    private static func derSequence(_ content: [UInt8]) -> [UInt8] { [0x30] + length(content.count) + content }

    private static func length(_ n: Int) -> [UInt8] {
        if n < 0x80 { return [UInt8(n)] }
        if n < 0x100 { return [0x81, UInt8(n)] }
        return [0x82, UInt8(n >> 8), UInt8(n & 0xFF)]
    }
}
