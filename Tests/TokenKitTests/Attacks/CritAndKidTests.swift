import Testing
import TokenKit

/// `crit` (RFC 7515 §4.1.11): TokenKit implements no extension, so any crit is refused;
/// and `kid` selection: a kid absent from the key set is refused with no fallback.
@Suite("Attack: crit headers and kid selection")
struct CritAndKidTests {
    @Test("any crit header is refused as unsupported critical", arguments: [
        #"{"alg":"HS256","crit":["exp"],"exp":1}"#,
        #"{"alg":"HS256","b64":false,"crit":["b64"]}"#,
        #"{"alg":"HS256","crit":["http://example.invalid/ext"],"http://example.invalid/ext":true}"#,
        #"{"alg":"HS256","crit":["missing"]}"#,
    ])
    func crit(header: String) throws {
        let token = TokenForge.token(header: header)
        expectJWTError(.unsupportedCritical) { try TokenForge.verifier().verify(token) }
        expectJWTError(.unsupportedCritical) { try TokenForge.verifier().verifyJWS(token) }
    }

    @Test("a crit that is not a non-empty array of distinct strings is malformed", arguments: [
        #"{"alg":"HS256","crit":[]}"#,
        #"{"alg":"HS256","crit":"b64"}"#,
        #"{"alg":"HS256","crit":[1]}"#,
        #"{"alg":"HS256","crit":["a","a"]}"#,
    ])
    func malformedCrit(header: String) throws {
        expectJWTError(.malformed) { try TokenForge.verifier().verify(TokenForge.token(header: header)) }
    }

    @Test("a kid not in the key set is refused even when another key would verify")
    func unknownKidNoFallback() throws {
        let key = try JWTKey.hmac(secret: TokenForge.secret, keyID: "current")
        let set = JWKSet(keys: [key, try JWTKey.generate(for: .es256, keyID: "other").publicKey()])
        let token = try JWTSigner(key: key.withKeyID("retired")).sign(JWTClaims())
        let error = expectJWTError(.noMatchingKey) { try JWTVerifier(keys: set, options: ValidationOptions(requiredClaims: [])).verify(token) }
        #expect(error?.reason.contains("retired") == true)
        // The same token with the right kid verifies (control).
        let good = try JWTSigner(key: key).sign(JWTClaims())
        #expect(try JWTVerifier(keys: set, options: ValidationOptions(requiredClaims: [])).verify(good).header.keyID == "current")
    }

    @Test("a token without kid is tried against every key that fits its alg")
    func noKidTriesFittingKeys() throws {
        let a = try JWTKey.generate(for: .es256, keyID: "a"), b = try JWTKey.generate(for: .es256, keyID: "b")
        let set = JWKSet(keys: [try a.publicKey(), try b.publicKey()])
        let token = try JWTSigner(key: b.withKeyID(nil)).sign(JWTClaims())
        #expect(try JWTVerifier(keys: set, options: ValidationOptions(requiredClaims: [])).verify(token).header.keyID == nil)
        let stranger = try JWTSigner(key: try JWTKey.generate(for: .es256)).sign(JWTClaims())
        let error = expectJWTError(.badSignature) { try JWTVerifier(keys: set, options: ValidationOptions(requiredClaims: [])).verify(stranger) }
        #expect(error?.reason.contains("2 keys") == true, "\(error?.reason ?? "")")
    }

    @Test("kid is matched exactly (case and whitespace matter)")
    func kidExact() throws {
        let key = try JWTKey.hmac(secret: TokenForge.secret, keyID: "Key-1")
        for kid in ["key-1", "Key-1 ", " Key-1", "Key-1\u{0}"] {
            let token = try JWTSigner(key: key.withKeyID(kid)).sign(JWTClaims())
            expectJWTError(.noMatchingKey) { try JWTVerifier(key: key, options: ValidationOptions(requiredClaims: [])).verify(token) }
        }
    }
}
