import Testing
import TokenKit

/// Every algorithm signs and verifies with keys that went through each export format
/// (PKCS#8 PEM, SPKI PEM, private and public JWK), and a JWKS picks the right key by kid.
/// (Interop with an independent implementation is in the Interop suite.)
@Suite("Keys: export/import round trips")
struct KeyRoundTripTests {
    static let asymmetric: [JWTAlgorithm] = [.rs256, .rs384, .rs512, .ps256, .ps384, .ps512, .es256, .es384, .es512, .es256k, .eddsa]

    @Test("PEM and JWK round trips sign and verify", arguments: asymmetric)
    func roundTrip(algorithm: JWTAlgorithm) throws {
        let original = try JWTKey.generate(for: algorithm, keyID: "k")
        let fromPKCS8 = try JWTKey(pem: try original.privateKeyPEM(), keyID: "k")
        let fromPrivateJWK = try JWTKey(jwk: try original.jwk(includingPrivate: true))
        // A PEM has no kid: give it the one the tokens carry (a key without kid is not a
        // candidate for a token that names a kid).
        let fromSPKI = try JWTKey(pem: try original.publicKeyPEM(), keyID: "k")
        let fromPublicJWK = try JWTKey(jwk: try original.jwk())
        #expect(!fromSPKI.isSecret && !fromPublicJWK.isSecret && fromPKCS8.isSecret && fromPrivateJWK.isSecret)
        #expect(try !original.jwk().contains("\"d\""), "a public JWK must not carry d")
        for signerKey in [original, fromPKCS8, fromPrivateJWK] {
            let token = try JWTSigner(key: signerKey, algorithm: algorithm).signJWS(payload: Array("hello".utf8))
            for verifierKey in [fromSPKI, fromPublicJWK, try original.publicKey()] {
                #expect(try JWTVerifier(key: verifierKey).verifyJWS(token).payload == Array("hello".utf8))
            }
        }
    }

    @Test("Ed448 keys round-trip through PEM and JWK")
    func ed448() throws {
        let key = try JWTKey.generateEd448(keyID: "ed448")
        #expect(try key.jwk().contains("\"Ed448\""))
        let token = try JWTSigner(key: try JWTKey(jwk: key.jwk(includingPrivate: true))).signJWS(payload: [0, 1, 2])
        #expect(try JWTVerifier(key: try JWTKey(pem: key.publicKeyPEM(), keyID: "ed448")).verifyJWS(token).payload == [0, 1, 2])
        #expect(try Base64URL.decode(token.split(separator: ".")[2]).count == 114)
    }

    @Test("HMAC keys round-trip through an oct JWK", arguments: [JWTAlgorithm.hs256, .hs384, .hs512])
    func hmac(algorithm: JWTAlgorithm) throws {
        let key = try JWTKey.generate(for: algorithm)
        let token = try JWTSigner(key: key, algorithm: algorithm).signJWS(payload: [9])
        #expect(try JWTVerifier(key: try JWTKey(jwk: key.jwk(includingPrivate: true))).verifyJWS(token).payload == [9])
    }

    @Test("a JWKS chooses the key named by kid among keys of the same type")
    func jwksKidSelection() throws {
        let keys = try (0..<3).map { try JWTKey.generate(for: .es256, keyID: "k\($0)") }
        let json = #"{"keys":[\#(try keys.map { try $0.jwk() }.joined(separator: ","))]}"#
        let verifier = JWTVerifier(keys: try JWKSet(json: json))
        for key in keys {
            let token = try JWTSigner(key: key).signJWS(payload: Array(key.keyID!.utf8))
            #expect(try verifier.verifyJWS(token).header.keyID == key.keyID)
        }
        // A token signed by k1 but labelled k2 is refused (no fallback to the real signer).
        let mislabelled = try JWTSigner(key: keys[1].withKeyID("k2")).signJWS(payload: [1])
        expectJWTError(.badSignature) { try verifier.verifyJWS(mislabelled) }
    }
}
