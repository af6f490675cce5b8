import Foundation
import TokenKitStore

/// The `exp` of `token` when it is a JWT, without checking its signature; `nil` when the
/// token is not a three-part JWT, its payload is not a JSON object, or it has no numeric `exp`.
///
/// Used only to decide *when* to refresh; never to decide whether a token is trustworthy.
func jwtExpiration(of token: String) -> Date? {
    let parts = token.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3, token.utf8.count <= 64 * 1024,
          let payload = base64URLDecode(parts[1]),
          let claims = try? JSONDecoder().decode(ExpirationClaim.self, from: payload),
          let seconds = claims.exp, seconds.isFinite, abs(seconds) < 1e11
    else { return nil }
    return Date(timeIntervalSince1970: seconds)
}

/// The only claim read here; a non-numeric `exp` makes decoding fail (so: no expiry known).
private struct ExpirationClaim: Decodable {
    let exp: Double?
}

/// Strict base64url (RFC 4648 §5) without padding; `nil` on any other character.
private func base64URLDecode(_ text: Substring) -> Data? {
    guard !text.isEmpty, text.utf8.count % 4 != 1,
          text.utf8.allSatisfy({ byte in
              (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                  || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D || byte == 0x5F
          })
    else { return nil }
    var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    base64 += String(repeating: "=", count: (4 - base64.utf8.count % 4) % 4)
    return Data(base64Encoded: base64)
}

/// When `tokenSet`'s access token expires: a JWT's own `exp` wins over the stored
/// `expires_at`; `nil` when neither is known (the token is used until the server rejects it).
func accessTokenExpiry(of tokenSet: TokenSet) -> Date? {
    jwtExpiration(of: tokenSet.accessToken) ?? tokenSet.expiresAt
}
