#if Hummingbird && Postgres
import Foundation
import Testing
import TokenKitStore
@testable import TokenKitAuth

@Suite("Access token expiry")
struct AccessTokenExpiryTests {
    @Test("a JWT's exp is read without a signature check")
    func jwtExp() {
        let exp = Date(timeIntervalSince1970: 1_900_000_000)
        #expect(jwtExpiration(of: makeJWT(exp: exp)) == exp)
    }

    @Test("opaque tokens, malformed JWTs and non-numeric exp give no expiry")
    func notJWT() {
        #expect(jwtExpiration(of: "opaque-token") == nil)
        #expect(jwtExpiration(of: "a.b") == nil)
        #expect(jwtExpiration(of: "a.!!!.c") == nil)
        #expect(jwtExpiration(of: makeJWT(exp: nil)) == nil)
        // {"exp":"soon"} and {"exp":true}
        #expect(jwtExpiration(of: "eyJhbGciOiJIUzI1NiJ9.eyJleHAiOiJzb29uIn0.c2ln") == nil)
        #expect(jwtExpiration(of: "eyJhbGciOiJIUzI1NiJ9.eyJleHAiOnRydWV9.c2ln") == nil)
        // {"exp":1} decodes; the same payload with "=" padding is not base64url and is refused
        #expect(jwtExpiration(of: "eyJhbGciOiJIUzI1NiJ9.eyJleHAiOjF9.c2ln") == Date(timeIntervalSince1970: 1))
        #expect(jwtExpiration(of: "eyJhbGciOiJIUzI1NiJ9.eyJleHAiOjF9==.c2ln") == nil)
    }

    @Test("the JWT's exp wins over the stored expires_at")
    func jwtWins() {
        let exp = Date(timeIntervalSince1970: 1_900_000_000)
        let set = TokenSet(accessToken: makeJWT(exp: exp), expiresAt: Date(timeIntervalSince1970: 2_000_000_000))
        #expect(accessTokenExpiry(of: set) == exp)
        let opaque = TokenSet(accessToken: "opaque", expiresAt: Date(timeIntervalSince1970: 2_000_000_000))
        #expect(accessTokenExpiry(of: opaque) == Date(timeIntervalSince1970: 2_000_000_000))
        #expect(accessTokenExpiry(of: TokenSet(accessToken: "opaque")) == nil)
    }
}
#endif
