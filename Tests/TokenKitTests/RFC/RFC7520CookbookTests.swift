import Foundation
import Testing
import TokenKit

/// RFC 7520 §4.1–4.4 signature examples (Figures 13, 20, 27, 35), as carried with their
/// keys in Wycheproof's json_web_signature_test.json (tcIds 345–348).
@Suite("RFC 7520 cookbook signatures")
struct RFC7520CookbookTests {
    struct Example {
        let jws: String
        let publicJWK: String
        let privateJWK: String
    }

    static func example(tcId: Int) throws -> Example {
        let data = try TestSupport.vectorData("wycheproof/json_web_signature_test.json")
        let root = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        for group in root?["testGroups"] as? [[String: Any]] ?? [] {
            for test in group["tests"] as? [[String: Any]] ?? [] where test["tcId"] as? Int == tcId {
                func text(_ object: Any?) throws -> String {
                    String(decoding: try JSONSerialization.data(withJSONObject: object ?? [:]), as: UTF8.self)
                }
                let privateKey = try text(group["private"])
                return Example(jws: test["jws"] as? String ?? "",
                               publicJWK: group["public"] == nil ? privateKey : try text(group["public"]),
                               privateJWK: privateKey)
            }
        }
        throw CocoaError(.fileReadCorruptFile)
    }

    static let payload = "It\u{2019}s a dangerous business, Frodo, going out your door. You step onto the road, and if you don't keep your feet, there\u{2019}s no knowing where you might be swept off to."

    @Test("§4.1 RS256 (Figure 13): verifies, and signing reproduces it exactly")
    func rs256() throws {
        let example = try Self.example(tcId: 345)
        let verified = try JWTVerifier(key: try JWTKey(jwk: example.publicJWK)).verifyJWS(example.jws)
        #expect(verified.payload == Array(Self.payload.utf8))
        #expect(verified.header.keyID == "bilbo.baggins@hobbiton.example")
        let signer = try JWTSigner(key: try JWTKey(jwk: example.privateJWK))
        #expect(signer.algorithm == .rs256)
        #expect(try signer.signJWS(payload: Array(Self.payload.utf8), header: JWTHeaderFields(type: nil)) == example.jws)
    }

    @Test("§4.2 PS384 (Figure 20): refused by a JWK bound to PS256 (as Wycheproof ships it); verifies with the key unbound")
    func ps384() throws {
        let example = try Self.example(tcId: 346)
        let header = try JSONValue(parsingBytes: Base64URL.decode(example.jws.split(separator: ".")[0]))
        #expect(header.objectValue?["alg"] == .string("PS384"))
        // Wycheproof's key carries "alg":"PS256" while the RFC token is PS384: the JWK's own
        // alg binds the key, so the token is refused on purpose.
        expectJWTError(.algorithmNotAllowed) { try JWTVerifier(key: try JWTKey(jwk: example.publicJWK)).verifyJWS(example.jws) }
        var unbound = try JSONValue(parsing: example.publicJWK).objectValue ?? JSONObject()
        unbound["alg"] = nil
        let verifier = JWTVerifier(key: try JWTKey(jwk: unbound))
        #expect(try verifier.verifyJWS(example.jws).payload == Array(Self.payload.utf8))
        var privateUnbound = try JSONValue(parsing: example.privateJWK).objectValue ?? JSONObject()
        privateUnbound["alg"] = nil
        let fresh = try JWTSigner(key: try JWTKey(jwk: privateUnbound), algorithm: .ps384).signJWS(payload: Array(Self.payload.utf8))
        #expect(try verifier.verifyJWS(fresh).payload == Array(Self.payload.utf8))
    }

    @Test("§4.3 ES512 (Figure 27): the RFC's alg \"ES521\" typo makes the JWK unusable; without it the signature verifies")
    func es512() throws {
        let example = try Self.example(tcId: 347)
        expectJWTError(.invalidKey) { try JWTKey(jwk: example.publicJWK) }
        let fixed = example.publicJWK.replacingOccurrences(of: "\"ES521\"", with: "\"ES512\"")
        #expect(fixed != example.publicJWK)
        #expect(try JWTVerifier(key: try JWTKey(jwk: fixed)).verifyJWS(example.jws).payload == Array(Self.payload.utf8))
    }

    @Test("§4.4 HS256 (Figure 35): verifies, and signing reproduces it exactly")
    func hs256() throws {
        let example = try Self.example(tcId: 348)
        let key = try JWTKey(jwk: example.privateJWK)
        #expect(try JWTVerifier(key: key).verifyJWS(example.jws).payload == Array(Self.payload.utf8))
        #expect(try JWTSigner(key: key).signJWS(payload: Array(Self.payload.utf8), header: JWTHeaderFields(type: nil)) == example.jws)
    }
}
