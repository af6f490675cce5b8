import TokenKitStore
internal import TokenKitPrimitives

/// An access token as ``AuthProvider`` hands it to an HTTP client: the token, its type, and
/// for a DPoP-bound login the key that must sign a proof for every request.
///
/// `description` shows the type only, never the token or the key.
public struct AccessToken: Sendable, CustomStringConvertible {
    /// The access token.
    public let value: String
    /// `"DPoP"` for a DPoP-bound token, else `"Bearer"` (what the server said, normalized).
    public let tokenType: String
    /// The private JWK of the DPoP key, when the token is DPoP-bound (a secret).
    public let dpopKeyJWK: String?

    init(_ tokenSet: TokenSet) {
        value = tokenSet.accessToken
        dpopKeyJWK = tokenSet.dpopKey
        tokenType = tokenSet.tokenType?.asciiLowercased.isByteIdentical(to: "dpop") == true && tokenSet.dpopKey != nil ? "DPoP" : "Bearer"
    }

    /// Whether requests must use `Authorization: DPoP` and carry a proof.
    public var isDPoP: Bool { tokenType.isByteIdentical(to: "DPoP") }

    /// `AccessToken(<type>)`.
    public var description: String { "AccessToken(\(tokenType))" }
}
