import Testing
import TokenKit

/// Duplicate JSON member names are refused in the header and in the payload, including
/// duplicates that differ only in how they are escaped (`"alg"` vs `"\u0061lg"`): a
/// parser that kept the first or the last would let two components disagree on a value.
@Suite("Attack: duplicate JSON members")
struct DuplicateMemberTests {
    @Test("duplicate header members are refused", arguments: [
        #"{"alg":"HS256","alg":"none"}"#,
        #"{"alg":"none","alg":"HS256"}"#,
        #"{"alg":"HS256","\u0061lg":"HS256"}"#,
        #"{"alg":"HS256","kid":"a","kid":"b"}"#,
        #"{"alg":"HS256","k\u0069d":"a","kid":"a"}"#,
        #"{"alg":"HS256","x\/y":1,"x/y":1}"#,
        #"{"alg":"HS256","crit":["b64"],"crit":[]}"#,
    ])
    func header(header: String) throws {
        let token = TokenForge.token(header: header)
        expectJWTError(.malformed) { try TokenForge.verifier().verify(token) }
        expectJWTError(.malformed) { try TokenForge.verifier().verifyJWS(token) }
        expectJWTError(.malformed) { try UnverifiedJWT(parsing: token) }
    }

    @Test("duplicate payload members are refused", arguments: [
        #"{"sub":"alice","sub":"admin"}"#,
        #"{"exp":1,"exp":9999999999}"#,
        #"{"sub":"alice","s\u0075b":"admin"}"#,
        #"{"aud":"a","\u0061\u0075\u0064":"b"}"#,
        #"{"nested":{"a":1,"a":2}}"#,
        #"{"list":[{"x":1,"\u0078":2}]}"#,
        #"{"\ud83d\ude00":1,"😀":2}"#,
    ])
    func payload(payload: String) throws {
        let token = TokenForge.token(payload: payload)
        let error = expectJWTError(.malformed) { try TokenForge.verifier().verify(token) }
        #expect(error?.reason.contains("duplicate") == true, "\(error?.reason ?? "")")
        expectJWTError(.malformed) { try UnverifiedJWT(parsing: token) }
    }

    @Test("names that only look alike are distinct members (control)")
    func distinctNames() throws {
        let token = TokenForge.token(payload: #"{"sub":"alice","Sub":"x","sub ":"y","s\u00fcb":"z"}"#)
        let claims = try TokenForge.verifier().verify(token).claims
        #expect(claims["sub"] == .string("alice"))
        #expect(claims["Sub"] == .string("x"))
        #expect(claims["süb"] == .string("z"))
    }

    @Test("a JWK with duplicate members is refused")
    func jwk() {
        expectJWTError(.invalidKey) { try JWTKey(jwk: #"{"kty":"oct","k":"\#(Base64URL.encode(TokenForge.secret))","k":"AAAA"}"#) }
        expectJWTError(.invalidKey) { try JWKSet(json: #"{"keys":[],"keys":[{"kty":"oct","k":"\#(Base64URL.encode(TokenForge.secret))"}]}"#) }
    }
}
