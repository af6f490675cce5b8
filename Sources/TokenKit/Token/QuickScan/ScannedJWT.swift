/// The header fields and registered claims of a JWT, as ``JWTQuickScanner`` extracted them
/// without building the full JSON tree. Unverified, like ``UnverifiedJWT``.
///
/// Every field equals what ``UnverifiedJWT`` and the typed ``JWTClaims`` accessors give for
/// the same token (see the scanner's guarantee). Claims other than the registered ones are
/// not kept; ask for their presence with the scanner's `claimNames`.
public struct ScannedJWT: Sendable, Hashable {
    /// Header `alg` (as written; may be `none`).
    public var algorithmName: String
    /// Header `kid`.
    public var keyID: String?
    /// `iss`.
    public var issuer: String?
    /// `sub`.
    public var subject: String?
    /// `jti`.
    public var jwtID: String?
    /// `aud` as a list (a single string becomes one element).
    public var audience: [String]?
    /// Whether `aud` was written as an array (`false` for a single string or when absent).
    public var audienceIsArray: Bool
    /// `iat`, with its literal (a finite number below 1e15 in magnitude).
    public var issuedAt: JSONNumber?
    /// `nbf`, with its literal.
    public var notBefore: JSONNumber?
    /// `exp`, with its literal.
    public var expiration: JSONNumber?
    /// Bit `i` is set when the payload has a member named `claimNames[i]`.
    public var presentClaims: UInt64

    init() {
        algorithmName = ""
        audienceIsArray = false
        presentClaims = 0
    }
}
