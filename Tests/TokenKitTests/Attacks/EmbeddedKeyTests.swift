import Testing
import TokenKit
import TokenKitCrypto

/// Header-embedded keys and key URLs (`jwk`, `jku`, `x5u`, `x5c`) are never used: a token
/// signed by an attacker's key fails even when that key rides in the header, and a token
/// signed by the configured key verifies whatever URLs its header names (nothing is fetched).
@Suite("Attack: header-embedded keys and key URLs")
struct EmbeddedKeyTests {
    static let payload = TestSupport.b64(#"{"sub":"admin"}"#)
    static let options = ValidationOptions(requiredClaims: [])

    /// Signs `header.payload` with `key` through the wrapper (so any header can be used).
    static func sign(header: String, with key: JWTKey, scheme: SignatureScheme) throws -> String {
        let input = TestSupport.b64(header) + "." + payload
        let pkey = try PKey(pem: try key.privateKeyPEM())
        return input + "." + Base64URL.encode(try pkey.sign(Array(input.utf8), scheme: scheme))
    }

    @Test("a token signed by the key in its own jwk header is refused", arguments: [JWTAlgorithm.es256, .rs256, .eddsa])
    func embeddedJWK(algorithm: JWTAlgorithm) throws {
        let legit = try JWTKey.generate(for: algorithm)
        let attacker = try JWTKey.generate(for: algorithm)
        let header = #"{"alg":"\#(algorithm.name)","jwk":\#(try attacker.publicKey().jwk())}"#
        let scheme: SignatureScheme = algorithm == .es256 ? .ecdsa(.sha256) : algorithm == .rs256 ? .rsaPKCS1(.sha256) : .eddsa
        let forged = try Self.sign(header: header, with: attacker, scheme: scheme)
        expectJWTError(.badSignature) { try JWTVerifier(key: try legit.publicKey(), options: Self.options).verify(forged) }
        // And the header is kept for inspection but not trusted.
        #expect(try UnverifiedJWT(parsing: forged).header.raw["jwk"] != nil)
    }

    @Test("an attacker's oct jwk in the header does not become an HMAC key")
    func embeddedOctJWK() throws {
        let attackerSecret = Array(repeating: UInt8(9), count: 32)
        let header = #"{"alg":"HS256","jwk":{"kty":"oct","k":"\#(Base64URL.encode(attackerSecret))"}}"#
        let input = TestSupport.b64(header) + "." + Self.payload
        let forged = input + "." + TokenForge.mac(secret: attackerSecret, input)
        expectJWTError(.noMatchingKey) { try JWTVerifier(key: try JWTKey.generate(for: .es256).publicKey(), options: Self.options).verify(forged) }
        expectJWTError(.badSignature) { try JWTVerifier(key: try TokenForge.key(), options: Self.options).verify(forged) }
    }

    @Test("jku, x5u and x5c pointing at the attacker do not change which key verifies", arguments: [
        #""jku":"https://attacker.invalid/jwks.json""#,
        #""x5u":"https://attacker.invalid/cert.pem""#,
        #""x5c":["MIIBszCCAVmgAwIBAgIUQ"]"#,
    ])
    func keyURLs(member: String) throws {
        let legit = try JWTKey.generate(for: .es256)
        let attacker = try JWTKey.generate(for: .es256)
        let header = #"{"alg":"ES256",\#(member)}"#
        let forged = try Self.sign(header: header, with: attacker, scheme: .ecdsa(.sha256))
        let verifier = JWTVerifier(key: try legit.publicKey(), options: Self.options)
        expectJWTError(.badSignature) { try verifier.verify(forged) }
        // Signed by the configured key, the same header verifies: the member is inert.
        let genuine = try Self.sign(header: header, with: legit, scheme: .ecdsa(.sha256))
        #expect(try verifier.verify(genuine).claims["sub"] == .string("admin"))
    }
}
