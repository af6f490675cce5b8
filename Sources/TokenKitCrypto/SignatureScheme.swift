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
