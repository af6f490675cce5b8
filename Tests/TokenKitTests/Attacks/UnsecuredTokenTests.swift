import Testing
import TokenKit

/// Unsecured JWS (`alg: none`, RFC 7518 §3.6) is never accepted, in any spelling, with or
/// without a signature, whatever keys the verifier holds.
@Suite("Attack: unsecured tokens")
struct UnsecuredTokenTests {
    static let spellings = ["none", "None", "NONE", "nOnE"]

    @Test("alg none with an empty signature is refused as unsecured", arguments: spellings)
    func emptySignature(alg: String) throws {
        let header = TestSupport.b64(#"{"alg":"\#(alg)","typ":"JWT"}"#), payload = TestSupport.b64(#"{"sub":"admin"}"#)
        expectJWTError(.unsecured) { try TokenForge.verifier().verify("\(header).\(payload).") }
        expectJWTError(.unsecured) { try TokenForge.verifier().verifyJWS("\(header).\(payload).") }
    }

    @Test("alg none is refused even when a valid MAC is attached", arguments: spellings)
    func withSignature(alg: String) throws {
        let token = TokenForge.token(header: #"{"alg":"\#(alg)"}"#)
        expectJWTError(.unsecured) { try TokenForge.verifier().verify(token) }
    }

    @Test("alg none is refused by a JWKS verifier and by an asymmetric-key verifier")
    func otherVerifiers() throws {
        let token = TestSupport.b64(#"{"alg":"none"}"#) + "." + TestSupport.b64(#"{"sub":"admin"}"#) + "."
        let set = JWKSet(keys: [try TokenForge.key(), try JWTKey.generate(for: .es256).publicKey()])
        expectJWTError(.unsecured) { try JWTVerifier(keys: set).verify(token) }
        expectJWTError(.unsecured) { try JWTVerifier(key: try JWTKey.generate(for: .rs256)).verify(token) }
    }

    @Test("an unsecured token without the trailing dot (two parts) is malformed")
    func twoParts() throws {
        let token = TestSupport.b64(#"{"alg":"none"}"#) + "." + TestSupport.b64(#"{"sub":"admin"}"#)
        expectJWTError(.malformed) { try TokenForge.verifier().verify(token) }
    }

    @Test("an HS256 token with an empty signature is refused")
    func emptyHMACSignature() throws {
        let token = TestSupport.b64(#"{"alg":"HS256"}"#) + "." + TestSupport.b64(#"{"sub":"admin"}"#) + "."
        expectJWTError(.badSignature) { try TokenForge.verifier().verify(token) }
    }

    @Test("empty signatures are refused for every asymmetric algorithm", arguments: [
        JWTAlgorithm.rs256, .ps256, .es256, .es384, .es512, .es256k, .eddsa,
    ])
    func emptyAsymmetricSignature(algorithm: JWTAlgorithm) throws {
        let key = try JWTKey.generate(for: algorithm)
        let token = TestSupport.b64(#"{"alg":"\#(algorithm.name)"}"#) + "." + TestSupport.b64(#"{"sub":"admin"}"#) + "."
        let options = ValidationOptions(requiredClaims: [])
        expectJWTError(.badSignature) { try JWTVerifier(key: try key.publicKey(), options: options).verify(token) }
    }

    @Test("TokenKit has no none algorithm to sign with")
    func noNoneAlgorithm() {
        #expect(JWTAlgorithm(name: "none") == nil)
        #expect(!JWTAlgorithm.all.contains { $0.name.lowercased() == "none" })
    }

    @Test("unknown algorithms are refused as unsupported", arguments: ["HS1", "RS1", "ES256X", "hs256", "A256GCM", ""])
    func unknownAlgorithms(alg: String) throws {
        let token = TokenForge.token(header: #"{"alg":"\#(alg)"}"#)
        expectJWTError(.unsupportedAlgorithm) { try TokenForge.verifier().verify(token) }
    }
}
