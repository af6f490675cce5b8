import Testing
import TokenKit
import TokenKitCrypto

/// RFC 7515 Appendix A: the four compact-serialization examples.
@Suite("RFC 7515 Appendix A")
struct RFC7515AppendixATests {
    /// A.1–A.3 tokens expire at 1300819380: validate one second before.
    static let beforeExpiry = ValidationOptions(clock: FixedClock(unixTime: RFCVectors.joeExp - 1))

    @Test("A.1 HS256: the token verifies with the JWK and its claims read back")
    func a1Verifies() throws {
        let key = try JWTKey(jwk: RFCVectors.a1Key)
        let verified = try JWTVerifier(key: key, options: Self.beforeExpiry).verify(RFCVectors.a1Token)
        #expect(verified.header.algorithm == .hs256)
        #expect(verified.header.type == "JWT")
        #expect(try verified.claims.issuer() == "joe")
        #expect(try verified.claims.expiration() == RFCVectors.joeExp)
        #expect(verified.claims["http://example.com/is_root"] == .bool(true))
        #expect(verified.payload == Array(RFCVectors.joePayload.utf8))
    }

    @Test("A.1 HS256: the token is expired at exactly exp")
    func a1ExpiredAtExp() throws {
        let key = try JWTKey(jwk: RFCVectors.a1Key)
        let verifier = JWTVerifier(key: key, options: ValidationOptions(clock: FixedClock(unixTime: RFCVectors.joeExp)))
        expectJWTError(.expired) { try verifier.verify(RFCVectors.a1Token) }
    }

    @Test("A.1 HS256: the MAC over the RFC's signing input is exactly the RFC's signature")
    func a1MACReproduces() throws {
        let parts = RFCVectors.a1Token.split(separator: ".")
        let secret = try Base64URL.decode("AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr_T-1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow")
        let mac = try HMACKey(secret: SecureBytes(secret), digest: .sha256).authenticationCode(for: Array("\(parts[0]).\(parts[1])".utf8))
        #expect(Base64URL.encode(mac) == String(parts[2]))
    }

    @Test("A.1 HS256: a flipped signature bit is refused")
    func a1TamperedRefused() throws {
        let key = try JWTKey(jwk: RFCVectors.a1Key)
        // The RFC signature ends in "k"; "g" keeps the encoding canonical but flips a bit.
        let tampered = String(RFCVectors.a1Token.dropLast()) + "g"
        expectJWTError(.badSignature) { try JWTVerifier(key: key, options: Self.beforeExpiry).verify(tampered) }
    }

    @Test("A.2 RS256: signing the RFC payload reproduces the RFC token byte for byte")
    func a2SignReproduces() throws {
        let key = try JWTKey(jwk: RFCVectors.a2PrivateKey)
        let signer = try JWTSigner(key: key, algorithm: .rs256)
        let token = try signer.signJWS(payload: Array(RFCVectors.joePayload.utf8), header: JWTHeaderFields(type: nil))
        #expect(token == RFCVectors.a2Token)
    }

    @Test("A.2 RS256: the token verifies with the public half of the JWK")
    func a2Verifies() throws {
        let key = try JWTKey(jwk: RFCVectors.a2PrivateKey).publicKey()
        #expect(!key.isSecret)
        let verified = try JWTVerifier(key: key, options: Self.beforeExpiry).verify(RFCVectors.a2Token)
        #expect(try verified.claims.issuer() == "joe")
    }

    @Test("A.3 ES256: the RFC token verifies, and a fresh signature round-trips")
    func a3() throws {
        let key = try JWTKey(jwk: RFCVectors.a3PrivateKey)
        let verifier = JWTVerifier(key: try key.publicKey(), options: Self.beforeExpiry)
        #expect(try verifier.verify(RFCVectors.a3Token).claims.issuer() == "joe")
        let fresh = try JWTSigner(key: key).signJWS(payload: Array(RFCVectors.joePayload.utf8), header: JWTHeaderFields(type: nil))
        #expect(fresh.hasPrefix("eyJhbGciOiJFUzI1NiJ9." + RFCVectors.joePayloadB64 + "."))
        #expect(try Base64URL.decode(fresh.split(separator: ".")[2]).count == 64)
        #expect(try verifier.verifyJWS(fresh).payload == Array(RFCVectors.joePayload.utf8))
    }

    @Test("A.4 ES512: the RFC JWS verifies and its payload is \"Payload\"")
    func a4() throws {
        let key = try JWTKey(jwk: RFCVectors.a4PrivateKey)
        #expect(key.algorithms == [.es512])
        let result = try JWTVerifier(key: try key.publicKey()).verifyJWS(RFCVectors.a4Token)
        #expect(result.payload == Array("Payload".utf8))
        #expect(result.header.algorithm == .es512)
        let fresh = try JWTSigner(key: key).signJWS(payload: Array("Payload".utf8), header: JWTHeaderFields(type: nil))
        #expect(try Base64URL.decode(fresh.split(separator: ".")[2]).count == 132)
        #expect(try JWTVerifier(key: key.publicKey()).verifyJWS(fresh).payload == Array("Payload".utf8))
    }
}
