#if Hummingbird && Postgres
import Testing
import TokenKitStore
@testable import TokenKitAuth

@Suite("Token character sets (RFC 6750 §2.1, RFC 6749 Appendix A, compact JWT)")
struct TokenCharacterSetTests {
    @Test("b64token access tokens pass, including every allowed symbol and trailing =",
          arguments: ["abc", "A-Za-z0-9-._~+/", "YWJj==", "x=", "eyJhbGciOiJIUzI1NiJ9.e30.sig"])
    func goodAccessTokens(token: String) throws {
        try TokenCharacterSet.checkAccessToken(token)
    }

    @Test("access tokens with spaces, quotes, controls, non-ASCII or misplaced = are refused",
          arguments: [("a b", 1), ("a\r\nX: 1", 1), ("tab\there", 3), ("\"q\"", 0), ("=abc", 0), ("ab=c", 3),
                      ("é", 0), ("a\u{1B}[2J", 1), ("a,b", 1), ("del\u{7F}", 3)])
    func badAccessTokens(token: String, offset: Int) {
        let error = #expect(throws: AuthError.self) { try TokenCharacterSet.checkAccessToken(token) }
        #expect(error?.code == .invalidResponse)
        #expect(error?.message.hasSuffix("at offset \(offset)") == true)
    }

    @Test("an empty access token is refused by name")
    func emptyAccessToken() {
        #expect(TokenCharacterSet.accessTokenProblem("") == "\"access_token\" is empty")
    }

    @Test("refresh tokens are 1*VSCHAR: printable ASCII including space; controls and non-ASCII refused")
    func refreshTokens() throws {
        try TokenCharacterSet.checkRefreshToken("a b~!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}")
        #expect(TokenCharacterSet.refreshTokenProblem("rt\n") != nil)
        #expect(TokenCharacterSet.refreshTokenProblem("rt\u{1B}") != nil)
        #expect(TokenCharacterSet.refreshTokenProblem("ü") != nil)
        #expect(TokenCharacterSet.refreshTokenProblem("") == "\"refresh_token\" is empty")
    }

    @Test("ID tokens must be compact JWTs: three or five base64url segments")
    func idTokens() throws {
        try TokenCharacterSet.checkIDToken("eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhIn0.c2ln")
        try TokenCharacterSet.checkIDToken("eyJhbGciOiJub25lIn0.e30.")
        try TokenCharacterSet.checkIDToken("a.b.c.d.e")
        #expect(TokenCharacterSet.idTokenProblem("a.b") == "\"id_token\" is not a JWT in compact form (2 segments)")
        #expect(TokenCharacterSet.idTokenProblem(".b.c") != nil)
        #expect(TokenCharacterSet.idTokenProblem("a.b+c.d")?.contains("byte 0x2B at offset 3") == true)
        #expect(TokenCharacterSet.idTokenProblem("a.b.c\r\n") != nil)
    }

    @Test("a token set is checked field by field")
    func wholeSet() {
        let set = TokenSet(accessToken: "ok", refreshToken: "fine", idToken: "not a jwt", tokenType: "Bearer")
        let error = #expect(throws: AuthError.self) { try TokenCharacterSet.check(set) }
        #expect(error?.message.contains("\"id_token\"") == true)
    }
}
#endif
