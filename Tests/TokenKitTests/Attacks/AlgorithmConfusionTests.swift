import Testing
import TokenKit

/// Algorithm confusion (the "RS256 public key as HS256 secret" attack and its relatives):
/// a key is bound to its algorithms, so a public key never verifies HS*, a secret never
/// verifies RS*/PS*/ES*/EdDSA, and a key never verifies another family's algorithm.
@Suite("Attack: algorithm confusion")
struct AlgorithmConfusionTests {
    static let claims = JWTClaims(JSONObject([("sub", .string("admin"))]))
    static let options = ValidationOptions(requiredClaims: [])

    @Test("an HS256 token MACed with the RSA public key's PEM bytes is refused by the RSA key")
    func publicKeyPEMAsHMACSecret() throws {
        let rsa = try JWTKey.generate(for: .rs256)
        let publicPEM = try rsa.publicKeyPEM()
        let attackerKey = try JWTKey.hmac(secret: Array(publicPEM.utf8))
        let forged = try JWTSigner(key: attackerKey, algorithm: .hs256).sign(Self.claims)
        let verifier = JWTVerifier(key: try JWTKey(pem: publicPEM), options: Self.options)
        let error = expectJWTError(.noMatchingKey) { try verifier.verify(forged) }
        #expect(error?.reason.contains("HS256") == true)
        // Same with a kid on both sides: the named key may not verify HS256.
        let withKid = try JWTSigner(key: attackerKey.withKeyID("k1"), algorithm: .hs256).sign(Self.claims)
        let kidVerifier = JWTVerifier(key: try JWTKey(pem: publicPEM, keyID: "k1"), options: Self.options)
        expectJWTError(.algorithmNotAllowed) { try kidVerifier.verify(withKid) }
    }

    @Test("the same attack with the JWK text and the DER-as-base64 as the secret is refused too")
    func otherPublicKeyEncodingsAsSecret() throws {
        let rsa = try JWTKey.generate(for: .rs256).publicKey()
        for secretText in [try rsa.jwk(), try rsa.publicKeyPEM().replacingOccurrences(of: "\n", with: "")] {
            let forged = try JWTSigner(key: try JWTKey.hmac(secret: Array(secretText.utf8))).sign(Self.claims)
            expectJWTError(.noMatchingKey) { try JWTVerifier(key: rsa, options: Self.options).verify(forged) }
        }
    }

    @Test("an HMAC key never verifies an RS256-labelled token, even one carrying its own MAC")
    func hmacKeyRefusesAsymmetricAlg() throws {
        let hmac = try TokenForge.key()
        for alg in ["RS256", "PS256", "ES256", "EdDSA"] {
            let token = TokenForge.token(header: #"{"alg":"\#(alg)"}"#)
            expectJWTError(.noMatchingKey) { try JWTVerifier(key: hmac, options: Self.options).verify(token) }
        }
    }

    @Test("a key set with an oct key and an RSA key: an RS256 token MACed with the oct key is refused")
    func mixedSetConfusion() throws {
        let secret = try JWTKey.hmac(secret: Array(repeating: 7, count: 32), keyID: "hmac")
        let rsa = try JWTKey.generate(for: .rs256, keyID: "rsa").publicKey()
        let set = JWKSet(keys: [secret, rsa])
        // The token claims RS256 but its "signature" is the HMAC of the signing input.
        let payload = TestSupport.b64(#"{"sub":"admin"}"#)
        func forged(_ header: String) -> String {
            let input = TestSupport.b64(header) + "." + payload
            return input + "." + TokenForge.mac(secret: Array(repeating: 7, count: 32), input)
        }
        let verifier = JWTVerifier(keys: set, options: Self.options)
        expectJWTError(.algorithmNotAllowed) { try verifier.verify(forged(#"{"alg":"RS256","kid":"hmac"}"#)) }
        expectJWTError(.badSignature) { try verifier.verify(forged(#"{"alg":"RS256","kid":"rsa"}"#)) }
        expectJWTError(.badSignature) { try verifier.verify(forged(#"{"alg":"RS256"}"#)) }
        // A genuine HS256 token from the oct key still works: the set is not broken.
        let genuine = try JWTSigner(key: secret).sign(Self.claims)
        #expect(try JWTVerifier(keys: set, options: Self.options).verify(genuine).claims["sub"] == .string("admin"))
    }

    @Test("keys refuse algorithms of another family or curve", arguments: [
        (JWTAlgorithm.es256, JWTAlgorithm.es384), (.es384, .es256), (.es512, .es256), (.es256, .es256k),
        (.es256k, .es256), (.eddsa, .es256), (.rs256, .es256), (.es256, .rs256), (.eddsa, .rs256),
    ])
    func crossFamily(keyAlgorithm: JWTAlgorithm, tokenAlgorithm: JWTAlgorithm) throws {
        let key = try JWTKey.generate(for: keyAlgorithm)
        // The token header names tokenAlgorithm; the signature is key's own (valid for keyAlgorithm).
        let genuine = try JWTSigner(key: key).signJWS(payload: Array("x".utf8))
        let parts = genuine.split(separator: ".")
        let relabelled = TestSupport.b64(#"{"alg":"\#(tokenAlgorithm.name)"}"#) + ".\(parts[1]).\(parts[2])"
        let error = expectJWTError(.noMatchingKey) { try JWTVerifier(key: try key.publicKey()).verifyJWS(relabelled) }
        #expect(error?.reason.contains(tokenAlgorithm.name) == true)
    }

    @Test("an RSA key restricted to PS256 refuses RS256 tokens signed by the same key")
    func restrictedKey() throws {
        let key = try JWTKey.generate(for: .rs256)
        let rs = try JWTSigner(key: key, algorithm: .rs256).signJWS(payload: Array("x".utf8))
        let psOnly = try key.publicKey().restricted(to: [.ps256])
        expectJWTError(.noMatchingKey) { try JWTVerifier(key: psOnly).verifyJWS(rs) }
        let ps = try JWTSigner(key: key, algorithm: .ps256).signJWS(payload: Array("x".utf8))
        #expect(try JWTVerifier(key: psOnly).verifyJWS(ps).payload == Array("x".utf8))
    }

    @Test("ValidationOptions.algorithms refuses an algorithm the key could verify")
    func allowList() throws {
        let key = try JWTKey.generate(for: .rs256)
        let token = try JWTSigner(key: key, algorithm: .rs256).sign(Self.claims)
        var options = Self.options
        options.algorithms = [.ps256]
        expectJWTError(.algorithmNotAllowed) { try JWTVerifier(key: key.publicKey(), options: options).verify(token) }
        options.algorithms = [.rs256, .ps256]
        #expect(try JWTVerifier(key: key.publicKey(), options: options).verify(token).header.algorithm == .rs256)
    }

    @Test("keys cannot be created bound to algorithms that do not fit them")
    func bindingAtCreation() throws {
        expectJWTError(.algorithmNotAllowed) { try JWTKey.hmac(secret: Array(repeating: 1, count: 64), algorithms: [.rs256]) }
        let pem = try JWTKey.generate(for: .es256).publicKeyPEM()
        expectJWTError(.algorithmNotAllowed) { try JWTKey(pem: pem, algorithms: [.hs256]) }
        expectJWTError(.algorithmNotAllowed) { try JWTKey(pem: pem, algorithms: [.es384]) }
        expectJWTError(.algorithmNotAllowed) { try JWTKey(pem: pem, algorithms: []) }
        expectJWTError(.algorithmNotAllowed) { try JWTSigner(key: try JWTKey.generate(for: .es256), algorithm: .hs256) }
    }
}
