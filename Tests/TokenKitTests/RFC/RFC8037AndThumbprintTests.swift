import Testing
import TokenKit

/// RFC 8037 Appendix A (Ed25519 JWS) and RFC 7638 §3.1 (JWK thumbprint).
@Suite("RFC 8037 Ed25519 and RFC 7638 thumbprints")
struct RFC8037AndThumbprintTests {
    @Test("RFC 8037 A.4: signing \"Example of Ed25519 signing\" reproduces the RFC JWS exactly")
    func ed25519SignReproduces() throws {
        let key = try JWTKey(jwk: RFCVectors.ed25519PrivateKey)
        let token = try JWTSigner(key: key).signJWS(payload: Array(RFCVectors.ed25519Payload.utf8), header: JWTHeaderFields(type: nil))
        #expect(token == RFCVectors.ed25519Token)
    }

    @Test("RFC 8037 A.5: the RFC JWS verifies with the public JWK; a changed payload does not")
    func ed25519Verifies() throws {
        let verifier = JWTVerifier(key: try JWTKey(jwk: RFCVectors.ed25519PublicKey))
        #expect(try verifier.verifyJWS(RFCVectors.ed25519Token).payload == Array(RFCVectors.ed25519Payload.utf8))
        let parts = RFCVectors.ed25519Token.split(separator: ".")
        let forged = "\(parts[0]).\(TestSupport.b64("Example of Ed25519 signinG")).\(parts[2])"
        expectJWTError(.badSignature) { try verifier.verifyJWS(forged) }
    }

    @Test("RFC 8037 A.3: the Ed25519 key's thumbprint")
    func ed25519Thumbprint() throws {
        #expect(try JWTKey(jwk: RFCVectors.ed25519PublicKey).thumbprint() == RFCVectors.ed25519Thumbprint)
        #expect(try JWTKey(jwk: RFCVectors.ed25519PrivateKey).thumbprint() == RFCVectors.ed25519Thumbprint)
    }

    @Test("RFC 7638 §3.1: the example RSA key's thumbprint (alg and kid do not count)")
    func rsaThumbprint() throws {
        let key = try JWTKey(jwk: RFCVectors.thumbprintKey)
        #expect(try key.thumbprint() == RFCVectors.thumbprint)
        #expect(try key.withKeyID("other").thumbprint() == RFCVectors.thumbprint)
    }

    @Test("a thumbprint survives a JWK export/import round trip")
    func thumbprintRoundTrip() throws {
        for algorithm in [JWTAlgorithm.es256, .es384, .es512, .es256k, .eddsa] {
            let key = try JWTKey.generate(for: algorithm)
            let reimported = try JWTKey(jwk: key.jwk())
            #expect(try reimported.thumbprint() == key.thumbprint(), "\(algorithm)")
        }
    }
}
