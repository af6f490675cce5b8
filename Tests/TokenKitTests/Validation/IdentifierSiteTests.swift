import Foundation
import Testing
@testable import TokenKit

/// Every identifier the JWT core compares goes through the one exact comparison (issue 23
/// item 2): one test per site, each with canonically equivalent inputs (U+212A KELVIN SIGN
/// for "K", a decomposed "é" for the precomposed one) that Swift's `String ==`, `Set<String>`
/// or `[String: …]` would have taken as equal. (iss, aud, sub, typ, kid selection, member
/// names and crit are in ``ExactIdentifierTests``.)
@Suite("Identifier sites of the JWT core, byte for byte")
struct IdentifierSiteTests {
    static let kelvin = "\u{212A}"
    static let precomposed = "caf\u{E9}"
    static let decomposed = "cafe\u{301}"

    static func options(_ configure: (inout ValidationOptions) -> Void) -> ValidationOptions {
        var options = ValidationOptions(requiredClaims: [], clock: FixedClock(unixTime: TokenForge.now))
        configure(&options)
        return options
    }

    @Test("IdentifierSet: canonically equivalent identifiers are two members; contains, insert and remove go by bytes")
    func identifierSet() {
        var set: IdentifierSet = ["K", Self.kelvin, Self.precomposed, Self.decomposed]
        #expect(set.count == 4)
        #expect(Set(["K", Self.kelvin]).count == 1, "the premise: Set<String> merges them")
        #expect(set.remove("K") == "K")
        #expect(!set.contains("K") && set.contains(Self.kelvin))
        #expect(set.insert("K").inserted && !set.insert(Self.kelvin).inserted)
        #expect(IdentifierSet(["K"]) != IdentifierSet([Self.kelvin]))
        #expect(IdentifierSet(["K"]).union([Self.kelvin]).count == 2)
    }

    @Test("ValidationOptions.issuers keeps two canonically equivalent issuers, and accepts each only for its own bytes")
    func configuredIssuers() throws {
        let options = Self.options { $0.issuers = ["https://\(Self.kelvin).example", "https://K.example"] }
        #expect(options.issuers?.count == 2)
        let verifier = JWTVerifier(key: try TokenForge.key(), options: Self.options { $0.issuers = ["https://K.example"] })
        expectJWTError(.issuerMismatch) { try verifier.verify(TokenForge.token(payload: #"{"iss":"https://\#(Self.kelvin).example"}"#)) }
    }

    @Test("requiredClaims naming both spellings requires both (a Set<String> kept one, and one claim satisfied it)")
    func requiredClaimsBothSpellings() throws {
        let verifier = JWTVerifier(key: try TokenForge.key(), options: Self.options { $0.requiredClaims = [Self.precomposed, Self.decomposed] })
        #expect(verifier.options.requiredClaims.count == 2)
        expectJWTError(.missingClaim) { try verifier.verify(TokenForge.token(payload: #"{"\#(Self.precomposed)":1}"#)) }
        _ = try verifier.verify(TokenForge.token(payload: #"{"\#(Self.precomposed)":1,"\#(Self.decomposed)":2}"#))
    }

    @Test("Audience: contains, == and hashing by bytes")
    func audience() {
        let audience: Audience = ["\(Self.kelvin)api", "other"]
        #expect(!audience.contains("Kapi"))
        #expect(audience.contains("\(Self.kelvin)api"))
        let plain: Audience = "Kapi", kelvin = Audience(["\(Self.kelvin)api"])
        #expect(plain != kelvin)
        #expect(Set([plain, kelvin]).count == 2)
    }

    @Test("RegisteredClaims, JSONValue, JWTClaims and JWTHeader compare strings by their bytes")
    func valueEquality() throws {
        #expect(RegisteredClaims(iss: "Kim") != RegisteredClaims(iss: "\(Self.kelvin)im"))
        #expect(RegisteredClaims(sub: Self.precomposed) != RegisteredClaims(sub: Self.decomposed))
        #expect(RegisteredClaims(iss: "Kim", aud: "a") == RegisteredClaims(iss: "Kim", aud: "a"))
        #expect(JSONValue.string("K") != JSONValue.string(Self.kelvin))
        #expect(Set([JSONValue.string("K"), .string(Self.kelvin)]).count == 2)
        #expect(JWTClaims(JSONObject([("iss", .string("K"))])) != JWTClaims(JSONObject([("iss", .string(Self.kelvin))])))
        let plain = try UnverifiedJWT(parsing: TokenForge.token(header: #"{"alg":"HS256","kid":"K1"}"#)).header
        let kelvin = try UnverifiedJWT(parsing: TokenForge.token(header: #"{"alg":"HS256","kid":"\#(Self.kelvin)1"}"#)).header
        #expect(plain != kelvin)
        #expect(plain == (try UnverifiedJWT(parsing: TokenForge.token(header: #"{"alg":"HS256","kid":"K1"}"#)).header))
    }

    @Test("JWK kty is matched byte for byte: \"O\\u{212A}P\" is not OKP")
    func jwkKeyType() throws {
        let key = try JWTKey.generate(for: .eddsa)
        let jwk = try key.publicKey().jwk()
        #expect(try JWTKey(jwk: jwk).keyType == "OKP")
        let kelvin = jwk.replacingOccurrences(of: #""OKP""#, with: "\"O\(Self.kelvin)P\"")
        #expect(Array(kelvin.utf8) != Array(jwk.utf8), "the premise: String != calls the two equal")
        expectJWTError(.invalidKey) { try JWTKey(jwk: kelvin) }
    }

    @Test("alg names are matched byte for byte: ES256 with KELVIN SIGN is not ES256K")
    func algorithmName() {
        #expect(JWTAlgorithm(name: "ES256K") == .es256k)
        #expect(JWTAlgorithm(name: "ES256\(Self.kelvin)") == nil)
        #expect(JWTAlgorithm.es256 != .es256k && JWTAlgorithm.es256 < .es256k)
    }

    @Test("IssuerKeySources picks a source by the exact bytes of iss; two equivalent issuers are two sources")
    func issuerSelection() async throws {
        let k = try TokenForge.key().withKeyID("k")
        let other = try JWTKey.hmac(secret: Array("another-secret-0123456789abcdefXY".utf8), keyID: "k")
        let sources = try IssuerKeySources(exactly: [
            "https://K.example": JWKSet(keys: [k]),
            "https://\(Self.kelvin).example": JWKSet(keys: [other]),
        ])
        #expect(sources.issuers.count == 2)
        let verifier = KeySourceVerifier(source: sources, issuer: .anyIssuer, audience: .anyAudience, options: Self.options { _ in })
        let kToken = TokenForge.token(header: #"{"alg":"HS256","kid":"k"}"#, payload: #"{"iss":"https://K.example"}"#)
        _ = try await verifier.verify(kToken)
        // The same token claiming the KELVIN issuer gets that issuer's (other) key: refused.
        let kelvinToken = TokenForge.token(header: #"{"alg":"HS256","kid":"k"}"#, payload: #"{"iss":"https://\#(Self.kelvin).example"}"#)
        let error = await #expect(throws: JWTError.self) { _ = try await verifier.verify(kelvinToken) }
        #expect(error?.code == .badSignature)
        #expect(sources.source(forIssuer: "https://k.example") == nil)
        #expect(throws: JWTError.self) {
            try IssuerKeySources(exactly: [(issuer: "a", source: JWKSet(keys: [k])), (issuer: "a", source: JWKSet(keys: [other]))])
        }
    }

    /// A source whose current keys are fixed and which counts the loads it is asked for.
    final class CountingSource: JWTKeySource, @unchecked Sendable {
        let keys: JWKSet
        private let lock = NSLock()
        private var loadCount = 0
        init(_ keys: JWKSet) { self.keys = keys }
        var loads: Int { lock.withLock { loadCount } }
        func currentKeys(for request: JWTKeyRequest) -> JWKSet? { keys }
        func loadKeys(for request: JWTKeyRequest) async throws(JWTError) -> JWKSet {
            lock.withLock { loadCount += 1 }
            return keys
        }
    }

    @Test("a kid spelled with KELVIN SIGN is not among keys whose kid is \"K1\": the source is asked to load")
    func currentKeysByExactKeyID() async throws {
        let source = CountingSource(JWKSet(keys: [try TokenForge.key().withKeyID("K1"), try TokenForge.key().withKeyID("x")]))
        let verifier = KeySourceVerifier(source: source, issuer: .anyIssuer, audience: .anyAudience, options: Self.options { _ in })
        _ = try await verifier.verify(TokenForge.token(header: #"{"alg":"HS256","kid":"K1"}"#))
        #expect(source.loads == 0)
        await #expect(throws: JWTError.self) { _ = try await verifier.verify(TokenForge.token(header: #"{"alg":"HS256","kid":"\#(Self.kelvin)1"}"#)) }
        #expect(source.loads == 1)
    }

    @Test("SigningKeySet.rotate compares kids by bytes: a KELVIN-SIGN kid is another kid, the same bytes are refused")
    func rotationKeyIDs() throws {
        var set = try SigningKeySet(current: try JWTKey.generate(for: .es256, keyID: "K1"))
        expectJWTError(.invalidKey) { try set.rotate(to: try JWTKey.generate(for: .es256, keyID: "K1"), retiredKeyLifetime: .seconds(60)) }
        try set.rotate(to: try JWTKey.generate(for: .es256, keyID: "\(Self.kelvin)1"), retiredKeyLifetime: .seconds(60))
        #expect(try set.verificationKeys().keys.compactMap(\.keyID).count == 2)
    }
}
