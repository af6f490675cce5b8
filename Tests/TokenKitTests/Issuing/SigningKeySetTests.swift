import Foundation
import Testing
import TokenKit

@Suite("Issuing: signing key sets, rotation, published JWKS, custom header fields")
struct SigningKeySetTests {
    static func claims(exp: Double) -> JWTClaims {
        JWTClaims(JSONObject([("sub", .string("svc")), ("exp", .number(JSONNumber(Int64(exp))))]))
    }

    @Test("the current key signs with its kid; after rotation the old key stays published until its lifetime ends")
    func rotation() async throws {
        let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
        let first = try JWTKey.generate(for: .es256, keyID: "2026-11")
        var set = try SigningKeySet(current: first, clock: clock)
        let old = try set.sign(Self.claims(exp: clock.now.timeIntervalSince1970 + 600))
        #expect(try UnverifiedJWT(parsing: old).header.keyID == "2026-11")

        try set.rotate(to: try JWTKey.generate(for: .es256, keyID: "2026-12"), retiredKeyLifetime: .seconds(660))
        let new = try set.sign(Self.claims(exp: clock.now.timeIntervalSince1970 + 600))
        #expect(try UnverifiedJWT(parsing: new).header.keyID == "2026-12")

        let options = ValidationOptions(clock: clock)
        let published = try JWKSet(json: try set.publicDocument())
        #expect(published.keys.map(\.keyID) == ["2026-12", "2026-11"])
        _ = try JWTVerifier(keys: published, options: options).verify(old)
        _ = try JWTVerifier(keys: try set.verificationKeys(), options: options).verify(new)

        clock.advance(by: .seconds(661))
        let later = try JWKSet(json: try set.publicDocument())
        #expect(later.keys.map(\.keyID) == ["2026-12"])
        #expect(throws: JWTError.self) { _ = try JWTVerifier(keys: later, options: options).verify(old) }
    }

    @Test("rotate refuses a kid that is still published (current or retired), and takes it once it is unpublished")
    func rotateRefusesPublishedKid() throws {
        let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
        var set = try SigningKeySet(current: try JWTKey.generate(for: .es256, keyID: "K"), clock: clock)
        try set.rotate(to: try JWTKey.generate(for: .es256, keyID: "b"), retiredKeyLifetime: .seconds(600))
        let reused = try JWTKey.generate(for: .es256, keyID: "K")
        let error = #expect(throws: JWTError.self) { try set.rotate(to: reused, retiredKeyLifetime: .seconds(600)) }
        #expect(error?.code == .invalidKey)
        #expect(error?.reason.contains("still published") == true, "\(error?.reason ?? "")")
        #expect(set.signer.key.keyID == "b", "a refused rotation changes nothing")
        // The KELVIN SIGN kid is another identifier (different bytes): not refused.
        var kelvin = set
        try kelvin.rotate(to: try JWTKey.generate(for: .es256, keyID: "\u{212A}"), retiredKeyLifetime: .seconds(600))
        clock.advance(by: .seconds(601))
        try set.rotate(to: reused, retiredKeyLifetime: .seconds(600))
        #expect(set.signer.key.keyID == "K")
    }

    @Test("the published document holds public parameters only")
    func publicOnly() throws {
        let rsa = try JWTKey.generate(for: .rs256, keyID: "r")
        let ec = try JWTKey.generate(for: .es256)
        let text = try JWKSet.publicDocument([rsa, ec])
        for secret in ["\"d\"", "\"p\"", "\"q\"", "\"dp\"", "\"dq\"", "\"qi\"", "\"k\""] {
            #expect(!text.contains(secret), "\(secret) in \(text)")
        }
        #expect(try JWKSet(json: text).keys.count == 2)
        #expect(throws: JWTError.self) { _ = try JWKSet.publicDocument([try JWTKey.hmac(secret: Array(repeating: 1, count: 32))]) }
    }

    @Test("a key without kid gets its RFC 7638 thumbprint; HMAC and public keys cannot be a signing set")
    func refusals() throws {
        let key = try JWTKey.generate(for: .es256)
        let set = try SigningKeySet(current: key)
        #expect(set.signer.key.keyID == (try key.thumbprint()))
        #expect(throws: JWTError.self) { _ = try SigningKeySet(current: try JWTKey.hmac(secret: Array(repeating: 1, count: 32))) }
        #expect(throws: JWTError.self) { _ = try SigningKeySet(current: try key.publicKey()) }
        var same = set
        #expect(throws: JWTError.self) { try same.rotate(to: key, retiredKeyLifetime: .seconds(60)) }
        #expect(throws: JWTError.self) { try same.rotate(to: try JWTKey.generate(for: .es256), retiredKeyLifetime: .seconds(-1)) }
    }

    @Test("custom header fields are signed in; they cannot override alg, kid, typ, cty, crit or jwk")
    func customHeader() throws {
        let key = try JWTKey.generate(for: .es256, keyID: "k")
        let signer = try JWTSigner(key: key)
        let token = try signer.sign(Self.claims(exp: Date().timeIntervalSince1970 + 60),
                                    header: JWTHeaderFields(custom: JSONObject([("x5t#S256", .string("abc")), ("tenant", .string("t1"))])))
        let verified = try JWTVerifier(key: try key.publicKey()).verify(token)
        #expect(verified.header.raw["tenant"]?.stringValue == "t1")
        #expect(verified.header.raw["x5t#S256"]?.stringValue == "abc")
        #expect(verified.header.keyID == "k" && verified.header.algorithmName == "ES256")
        for name in ["alg", "kid", "typ", "cty", "crit", "jwk"] {
            let error = #expect(throws: JWTError.self) {
                _ = try signer.sign(Self.claims(exp: 0), header: JWTHeaderFields(custom: JSONObject([(name, .string("x"))])))
            }
            #expect(error?.reason.contains(name) == true)
        }
    }
}
