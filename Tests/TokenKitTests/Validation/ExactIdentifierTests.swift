import Foundation
import Testing
@testable import TokenKit

/// Identifiers are compared by their UTF-8 bytes (RFC 7519 §7.3), never by Swift's Unicode
/// canonical equivalence (issue 9, item 1): U+212A KELVIN SIGN is canonically equivalent
/// to "K", and a decomposed "é" (e + U+0301) to the precomposed U+00E9.
@Suite("Identifiers compared byte for byte")
struct ExactIdentifierTests {
    static let kelvin = "\u{212A}"
    static let precomposed = "\u{00E9}"
    static let decomposed = "e\u{0301}"

    static func verify(payload: String, header: String = #"{"alg":"HS256"}"#, _ configure: (inout ValidationOptions) -> Void) throws -> VerifiedJWT {
        var options = ValidationOptions(requiredClaims: [], clock: FixedClock(unixTime: TokenForge.now))
        configure(&options)
        return try JWTVerifier(key: try TokenForge.key(), options: options).verify(TokenForge.token(header: header, payload: payload))
    }

    @Test("the premise: Swift's String == treats these as equal")
    func premise() {
        #expect("\(Self.kelvin)api" == "Kapi")
        #expect("caf\(Self.decomposed)" == "caf\(Self.precomposed)")
    }

    @Test("aud spelled with KELVIN SIGN does not match an expected \"Kapi\"")
    func audienceKelvin() throws {
        expectJWTError(.audienceMismatch) { try Self.verify(payload: #"{"aud":"\#(Self.kelvin)api"}"#) { $0.audiences = ["Kapi"] } }
        expectJWTError(.audienceMismatch) { try Self.verify(payload: #"{"aud":["x","\#(Self.kelvin)api"]}"#) { $0.audiences = ["Kapi"] } }
        #expect(try Self.verify(payload: #"{"aud":"Kapi"}"#) { $0.audiences = ["Kapi"] }.claims["aud"] != nil)
    }

    @Test("a decomposed é in iss does not match a configured precomposed one")
    func issuerDecomposed() throws {
        expectJWTError(.issuerMismatch) {
            try Self.verify(payload: #"{"iss":"https://caf\#(Self.decomposed).example"}"#) { $0.issuers = ["https://caf\(Self.precomposed).example"] }
        }
        #expect(try Self.verify(payload: #"{"iss":"https://caf\#(Self.precomposed).example"}"#) {
            $0.issuers = ["https://caf\(Self.precomposed).example"]
        }.claims["iss"] != nil)
    }

    @Test("an escaped \\u212A in the JSON text is the same code point, and does not match K either")
    func escapedKelvin() {
        expectJWTError(.audienceMismatch) { try Self.verify(payload: #"{"aud":"\u212Aapi"}"#) { $0.audiences = ["Kapi"] } }
    }

    @Test("sub is compared byte for byte")
    func subject() {
        expectJWTError(.subjectMismatch) { try Self.verify(payload: #"{"sub":"\#(Self.kelvin)im"}"#) { $0.subject = "Kim" } }
    }

    @Test("typ folds ASCII case only: KELVIN SIGN is not a k")
    func typeKelvin() throws {
        expectJWTError(.typeMismatch) {
            try Self.verify(payload: "{}", header: #"{"alg":"HS256","typ":"\#(Self.kelvin)ey+jwt"}"#) { $0.type = "key+jwt" }
        }
        #expect(try Self.verify(payload: "{}", header: #"{"alg":"HS256","typ":"application/KEY+JWT"}"#) { $0.type = "key+jwt" }.header.type != nil)
    }

    @Test("a required claim is present only under its exact name")
    func requiredClaimName() throws {
        expectJWTError(.missingClaim) { try Self.verify(payload: #"{"\#(Self.decomposed)":1}"#) { $0.requiredClaims = [Self.precomposed] } }
        #expect(try Self.verify(payload: #"{"\#(Self.precomposed)":1}"#) { $0.requiredClaims = [Self.precomposed] }.claims.raw.count == 1)
    }

    @Test("member names differing only by normalisation are two members, each found only by its own bytes")
    func memberNames() throws {
        let jwt = try Self.verify(payload: #"{"\#(Self.precomposed)":1,"\#(Self.decomposed)":2}"#) { _ in }
        #expect(jwt.claims.raw.count == 2)
        #expect(jwt.claims[Self.precomposed]?.numberValue?.int64Value == 1)
        #expect(jwt.claims[Self.decomposed]?.numberValue?.int64Value == 2)
        var object = JSONObject()
        object["Kid"] = .string("a")
        #expect(object["\(Self.kelvin)id"] == nil)
    }

    @Test("kid selects only the key with exactly that kid", arguments: [1, 2])
    func keyID(keyCount: Int) throws {
        let named = try TokenForge.key().withKeyID("\(Self.kelvin)1")
        let other = try JWTKey.hmac(secret: Array("another-secret-0123456789abcdefXY".utf8), keyID: "other")
        let keys = keyCount == 1 ? JWKSet(keys: [named]) : JWKSet(keys: [named, other])
        let verifier = JWTVerifier(keys: keys, options: ValidationOptions(requiredClaims: [], clock: FixedClock(unixTime: TokenForge.now)))
        expectJWTError(.noMatchingKey) { try verifier.verify(TokenForge.token(header: #"{"alg":"HS256","kid":"K1"}"#, payload: "{}")) }
        #expect(try verifier.verify(TokenForge.token(header: #"{"alg":"HS256","kid":"\#(Self.kelvin)1"}"#, payload: "{}")).header.keyID != nil)
    }

    @Test("crit names differing only by normalisation are distinct")
    func critNames() {
        // Both spellings are listed once each: the header is well-formed (and then refused
        // as an unsupported critical extension, not as a malformed crit list).
        let header = #"{"alg":"HS256","crit":["\#(Self.precomposed)","\#(Self.decomposed)"],"\#(Self.precomposed)":1,"\#(Self.decomposed)":2}"#
        expectJWTError(.unsupportedCritical) { try Self.verify(payload: "{}", header: header) { _ in } }
    }
}
