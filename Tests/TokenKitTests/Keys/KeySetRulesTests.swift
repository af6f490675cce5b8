import Testing
import TokenKit

/// Key-set rules that Wycheproof's JWK vectors pin: an ambiguous kid is refused, a JWKS
/// document mixing shared secrets with asymmetric keys is refused, and RSA moduli with the
/// ROCA fingerprint (CVE-2017-15361) are refused in every format.
@Suite("Keys: key-set rules and weak RSA moduli")
struct KeySetRulesTests {
    static let options = ValidationOptions(requiredClaims: [])

    @Test("a kid shared by two keys is refused as ambiguous, even for a token one of them signed")
    func duplicateKid() throws {
        let a = try JWTKey.hmac(secret: [UInt8](repeating: 1, count: 32), keyID: "same")
        let b = try JWTKey.hmac(secret: [UInt8](repeating: 2, count: 32), keyID: "same")
        let token = try JWTSigner(key: a).sign(JWTClaims())
        for set in [JWKSet(keys: [a, b]), try JWKSet(json: #"{"keys":[\#(try a.jwk(includingPrivate: true)),\#(try b.jwk(includingPrivate: true))]}"#)] {
            let error = expectJWTError(.noMatchingKey) { try JWTVerifier(keys: set, options: Self.options).verify(token) }
            #expect(error?.reason.contains("ambiguous") == true)
        }
        // An unusable entry with the same kid still makes the kid ambiguous.
        let broken = #"{"kty":"oct","kid":"same","k":"AAAB"}"#
        let withBroken = try JWKSet(json: #"{"keys":[\#(try a.jwk(includingPrivate: true)),\#(broken)]}"#)
        #expect(withBroken.keys.count == 1)
        expectJWTError(.noMatchingKey) { try JWTVerifier(keys: withBroken, options: Self.options).verify(token) }
        // Unique kids: the same token verifies (control).
        #expect(try JWTVerifier(keys: JWKSet(keys: [a, b.withKeyID("other")]), options: Self.options).verify(token).header.keyID == "same")
    }

    @Test("a JWKS document with both oct and asymmetric keys is refused; separate sets are fine")
    func mixedDocument() throws {
        let oct = try JWTKey.hmac(secret: [UInt8](repeating: 3, count: 32), keyID: "h").jwk(includingPrivate: true)
        let ec = try JWTKey.generate(for: .es256, keyID: "e").publicKey().jwk()
        let error = expectJWTError(.invalidKey) { try JWKSet(json: #"{"keys":[\#(oct),\#(ec)]}"#) }
        #expect(error?.reason.contains("oct") == true)
        #expect(try JWKSet(json: #"{"keys":[\#(oct)]}"#).keys.count == 1)
        #expect(try JWKSet(json: #"{"keys":[\#(ec)]}"#).keys.count == 1)
        // A skipped (unusable) oct key does not make the document mixed.
        #expect(try JWKSet(json: #"{"keys":[{"kty":"oct","k":"AAAA"},\#(ec)]}"#).keys.count == 1)
    }

    @Test("the Wycheproof ROCA modulus is refused as a JWK and in a JWKS")
    func roca() throws {
        let jwks = try #require(Wycheproof.joseCases("json_web_key_test.json").first { $0.tcId == 7 }).keyJSON
        let error = expectJWTError(.invalidKey) { try JWKSet(json: jwks) }
        #expect(error?.reason.contains("ROCA") == true, "\(error?.reason ?? "")")
        let jwk = try #require(try JSONValue(parsing: jwks).objectValue?["keys"]?.arrayValue?.first?.objectValue)
        expectJWTError(.invalidKey) { try JWTKey(jwk: jwk) }
    }

    @Test("freshly generated RSA keys never trip the ROCA check")
    func rocaNoFalsePositive() throws {
        for _ in 0..<3 {
            let key = try JWTKey.generate(for: .rs256)
            #expect(try JWTKey(jwk: key.jwk()).keyType == "RSA")
        }
    }
}
