import Foundation
import Testing
@testable import TokenKit

/// `Audience` and `RegisteredClaims` through Foundation coding as TokenKit configures it
/// (`ClaimsCoding`: NumericDate seconds, sorted keys) and through a real sign/verify.
@Suite("RegisteredClaims and Audience Codable")
struct RegisteredClaimsCodingTests {
    private func json(_ value: some Encodable) throws -> String {
        String(decoding: try ClaimsCoding.encode(value), as: UTF8.self)
    }

    private func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
        try ClaimsCoding.decoder().decode(type, from: Data(text.utf8))
    }

    @Test("one audience encodes as a string, several (or none) as an array")
    func audienceEncoding() throws {
        #expect(try json(["aud": Audience("api")]) == #"{"aud":"api"}"#)
        #expect(try json(["aud": Audience(["api", "web"])]) == #"{"aud":["api","web"]}"#)
        #expect(try json(["aud": Audience([])]) == #"{"aud":[]}"#)
    }

    @Test("an audience decodes from a string or an array of strings, in order")
    func audienceDecoding() throws {
        #expect(try decode([String: Audience].self, #"{"aud":"api"}"#)["aud"]?.values == ["api"])
        #expect(try decode([String: Audience].self, #"{"aud":["b","a","b"]}"#)["aud"]?.values == ["b", "a", "b"])
        let one = try decode([String: Audience].self, #"{"aud":["only"]}"#)["aud"]
        #expect(one == Audience("only"))
        #expect(one?.contains("only") == true && one?.contains("Only") == false)
    }

    @Test("an audience that is not a string or an array of strings is refused", arguments: [
        #"{"aud":42}"#, #"{"aud":null}"#, #"{"aud":["api",7]}"#, #"{"aud":{"a":"b"}}"#, #"{"aud":true}"#,
    ])
    func audienceRefusesOtherTypes(_ text: String) {
        #expect(throws: DecodingError.self) { try decode([String: Audience].self, text) }
    }

    @Test("registered claims round-trip; dates are NumericDate seconds; absent claims are omitted")
    func registeredClaimsRoundTrip() throws {
        let claims = RegisteredClaims(iss: "https://id.example", sub: "parent-42", aud: ["api", "web"],
                                      exp: Date(timeIntervalSince1970: 1_795_310_900), nbf: Date(timeIntervalSince1970: 1_795_310_000),
                                      iat: Date(timeIntervalSince1970: 1_795_310_000.5), jti: "j-1")
        let text = try json(claims)
        #expect(text == #"{"aud":["api","web"],"exp":1795310900,"iat":1795310000.5,"iss":"https://id.example","jti":"j-1","nbf":1795310000,"sub":"parent-42"}"#)
        #expect(try decode(RegisteredClaims.self, text) == claims)
        #expect(try json(RegisteredClaims()) == "{}")
        #expect(try json(RegisteredClaims(sub: "s")) == #"{"sub":"s"}"#)
    }

    @Test("registered claims refuse wrongly typed members, naming where")
    func registeredClaimsRefuseWrongTypes() throws {
        #expect(throws: DecodingError.self) { try decode(RegisteredClaims.self, #"{"exp":"1795310900"}"#) }
        #expect(throws: DecodingError.self) { try decode(RegisteredClaims.self, #"{"iss":7}"#) }
        do {
            _ = try decode(RegisteredClaims.self, #"{"nbf":[1]}"#)
            Issue.record("an array nbf was accepted")
        } catch {
            #expect(ClaimsCoding.describe(error) == #"wrong type at "nbf""#)
        }
    }

    @Test("registered claims signed and verified come back equal, and match the JWTClaims view")
    func throughSignAndVerify() throws {
        let key = try JWTKey.generate(for: .es256)
        let claims = RegisteredClaims(iss: "https://id.example", sub: "parent-42", aud: "api",
                                      exp: Date(timeIntervalSince1970: 1_795_310_900), iat: Date(timeIntervalSince1970: 1_795_310_000), jti: "j-2")
        let token = try JWTSigner(key: key).sign(claims)
        let verifier = JWTVerifier(key: try key.publicKey(),
                                   options: ValidationOptions(audiences: ["api"], clock: FixedClock(unixTime: 1_795_310_100)))
        #expect(try verifier.verify(token, as: RegisteredClaims.self) == claims)
        let view = try verifier.verify(token).claims
        #expect(try view.audience() == ["api"])
        #expect(try view.expiration() == 1_795_310_900)
        #expect(try view.jwtID() == "j-2")
        #expect(view["aud"] == .string("api"))
    }
}
