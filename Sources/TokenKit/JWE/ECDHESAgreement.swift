internal import TokenKitCrypto
internal import TokenKitPrimitives

/// ECDH-ES key agreement for JWE (RFC 7518 §4.6, RFC 8037 §3.2): the ephemeral key's
/// admission and the Concat KDF's OtherInfo.
enum ECDHESAgreement {
    /// The sender's ephemeral public key from the header's `epk`, admitted only when it is a
    /// public JWK (no `d`) of the recipient key's own type and curve whose point passes the
    /// key admission gate (on the curve: the invalid-curve attack is refused here).
    static func ephemeralKey(_ epk: JSONObject, recipient: PKey) throws(JWTError) -> PKey {
        guard epk["d"] == nil else { throw invalid("\"epk\" holds a private key (\"d\")") }
        let fields = JWKFields(epk)
        let components: KeyComponents
        do throws(JWTError) {
            let kty = try fields.string("kty", required: true) ?? ""
            guard kty.isByteIdentical(to: "EC") || kty.isByteIdentical(to: "OKP") else { throw JWTError.invalidKey("\"kty\" \"\(JSONNameShortener.shorten(kty))\" is not EC or OKP") }
            components = try fields.components(kty: kty, purpose: .encryption)
        } catch {
            throw invalid("\"epk\" is not a usable public key: \(error.reason)")
        }
        let claimed: AsymmetricKeyType
        switch components {
        case .ec(let curve, _, _, _): claimed = .ec(curve)
        case .x25519: claimed = .x25519
        case .rsa, .okp: throw invalid("\"epk\" is not an ECDH key")
        }
        guard claimed == recipient.type else {
            throw invalid("\"epk\" is on \(claimed) but the recipient's key is \(recipient.type)")
        }
        do {
            // An EC point is put on a copy of the recipient's group (the same curve, checked
            // above), which is cheaper than building the group from its name; X25519 keys
            // are raw bytes either way. Both pass the key admission gate.
            if case .ec(_, let x, let y, _) = components { return try recipient.ecPeer(x: x, y: y) }
            return try PKey(components: components)
        } catch {
            throw JWTError(code: .invalidEphemeralKey, reason: "invalid ephemeral key: \"epk\" is not a valid \(claimed) public key: \(error.message)",
                           underlyingError: error, underlyingReasons: error.openSSLReasons)
        }
    }

    /// The key ECDH-ES derives between `privateKey` and `publicKey`: the Concat KDF of the
    /// shared secret with OtherInfo = AlgorithmID || PartyUInfo || PartyVInfo || SuppPubInfo
    /// (each of the first three a 32-bit big-endian length and the bytes; SuppPubInfo the key
    /// length in bits). `algorithmID` is the `enc` for direct ECDH-ES and the `alg` otherwise.
    static func derive(
        privateKey: PKey, publicKey: PKey, algorithmID: String, keyByteCount: Int, partyUInfo: [UInt8], partyVInfo: [UInt8]
    ) throws(CryptoError) -> SecureBytes {
        let z = try privateKey.sharedSecret(with: publicKey)
        var otherInfo: [UInt8] = []
        for field in [Array(algorithmID.utf8), partyUInfo, partyVInfo] {
            otherInfo += bigEndian32(field.count) + field
        }
        otherInfo += bigEndian32(keyByteCount * 8)
        return try ConcatKDF.deriveKey(sharedSecret: z, otherInfo: otherInfo, length: keyByteCount)
    }

    private static func bigEndian32(_ value: Int) -> [UInt8] {
        let v = UInt32(truncatingIfNeeded: value)
        return [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
    }

    private static func invalid(_ why: String) -> JWTError {
        JWTError(code: .invalidEphemeralKey, reason: "invalid ephemeral key: \(why)")
    }
}
