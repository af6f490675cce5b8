/// How a JWS algorithm turns a key and a message into a signature.
package enum SignatureScheme: Sendable {
    /// RSASSA-PKCS1-v1_5 (RS256/384/512).
    case rsaPKCS1(MessageDigest)
    /// RSASSA-PSS with MGF1 of the same digest and a salt as long as the digest (PS256/384/512).
    case rsaPSS(MessageDigest)
    /// ECDSA with the JWS signature form: r || s, each exactly the curve's coordinate size.
    case ecdsa(MessageDigest)
    /// Pure EdDSA (Ed25519 or Ed448, no pre-hash).
    case eddsa

    /// Number of context kinds a key's ``ContextPool`` has: one per scheme and operation.
    static let contextKinds = 20

    /// The pool kind of this scheme for signing or verifying.
    func contextKind(signing: Bool) -> Int {
        let base: Int
        switch self {
        case .rsaPKCS1(let d): base = d.index
        case .rsaPSS(let d): base = 3 + d.index
        case .ecdsa(let d): base = 6 + d.index
        case .eddsa: base = 9
        }
        return base * 2 + (signing ? 0 : 1)
    }

    /// Whether contexts of `kind` are `EVP_MD_CTX` (EdDSA) rather than `EVP_PKEY_CTX`.
    static func usesDigestContext(kind: Int) -> Bool { kind >= 18 }

    var digest: MessageDigest? {
        switch self {
        case .rsaPKCS1(let d), .rsaPSS(let d), .ecdsa(let d): d
        case .eddsa: nil
        }
    }
}

/// The outcome of a signature check: valid, or invalid with the reason.
package enum SignatureCheck: Sendable, Equatable {
    case valid
    /// The signature does not verify; `reason` says why (never key material).
    case invalid(reason: String)
}
