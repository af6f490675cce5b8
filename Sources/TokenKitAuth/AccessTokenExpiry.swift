import Foundation
import TokenKit
import TokenKitStore

/// The `exp` of `token` when it is a JWT, decoded without checking its signature; `nil` when
/// the token is not a well-formed JWT or has no valid numeric `exp`.
///
/// Used only to decide *when* to refresh; never to decide whether a token is trustworthy.
func jwtExpiration(of token: String) -> Date? {
    // Opaque tokens are not JWTs: skip the parser unless the token has the compact shape.
    guard token.utf8.count(where: { $0 == UInt8(ascii: ".") }) == 2 else { return nil }
    return (try? UnverifiedJWT(parsing: token))?.claims.expirationDate
}

/// When `tokenSet`'s access token expires: a JWT's own `exp` wins over the stored
/// `expires_at`; `nil` when neither is known (the token is used until the server rejects it).
func accessTokenExpiry(of tokenSet: TokenSet) -> Date? {
    jwtExpiration(of: tokenSet.accessToken) ?? tokenSet.expiresAt
}
