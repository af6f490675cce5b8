import Foundation
import Testing
import TokenKit

/// A key source whose keys a test swaps at run time, counting loads.
final class SwappableKeys: JWTKeySource, @unchecked Sendable {
    // @unchecked Sendable: fields are read and written only while `lock` is held.
    private let lock = NSLock()
    private var current: JWKSet?
    private var next: JWKSet?
    private var loadCount = 0

    init(_ keys: JWKSet?) { current = keys }
    func prepare(next keys: JWKSet) { lock.lock(); next = keys; lock.unlock() }
    /// Makes `keys` the current keys at once (a source that refreshed in the background).
    func replace(with keys: JWKSet) { lock.lock(); current = keys; lock.unlock() }
    var loads: Int { lock.lock(); defer { lock.unlock() }; return loadCount }

    func currentKeys(for request: JWTKeyRequest) -> JWKSet? { lock.lock(); defer { lock.unlock() }; return current }
    func loadKeys(for request: JWTKeyRequest) async throws(JWTError) -> JWKSet {
        let loaded: JWKSet? = lock.withLock {
            loadCount += 1
            if let next { current = next; self.next = nil }
            return current
        }
        guard let loaded else { throw JWTError(code: .keysUnavailable, reason: "none") }
        return loaded
    }
}

@Suite("Key sources: KeySourceVerifier")
struct KeySourceVerifierTests {
    static func token(_ key: JWTKey, iss: String? = nil) throws -> String {
        var claims = JSONObject([("exp", .number(JSONNumber(Int64(Date().timeIntervalSince1970) + 60)))])
        if let iss { claims["iss"] = .string(iss) }
        return try JWTSigner(key: key).sign(JWTClaims(claims))
    }

    @Test("known kid: no load; unknown kid: one load, then the new key verifies")
    func loadsOnlyForUnknownKid() async throws {
        let a = try JWTKey.generate(for: .es256, keyID: "a"), b = try JWTKey.generate(for: .es256, keyID: "b")
        let source = SwappableKeys(JWKSet(keys: [try a.publicKey()]))
        let verifier = KeySourceVerifier(source: source, issuer: .anyIssuer, audience: .anyAudience)
        _ = try await verifier.verify(try Self.token(a))
        #expect(source.loads == 0)
        source.prepare(next: JWKSet(keys: [try a.publicKey(), try b.publicKey()]))
        _ = try await verifier.verify(try Self.token(b))
        #expect(source.loads == 1)
        _ = try await verifier.verify(try Self.token(b))
        #expect(source.loads == 1)
    }

    @Test("the same checks and errors as JWTVerifier, for static keys")
    func sameAsStatic() async throws {
        let key = try JWTKey.generate(for: .es256, keyID: "k")
        let keys = JWKSet(keys: [try key.publicKey()])
        let options = ValidationOptions(issuers: ["https://a"])
        let sync = JWTVerifier(keys: keys, options: options)
        let async = KeySourceVerifier(source: keys, issuer: .exactly("https://a"), audience: .anyAudience, options: options)
        let tokens = [try Self.token(key, iss: "https://a"), try Self.token(key, iss: "https://b"), "a.b", "e30.e30.", try Self.token(try JWTKey.generate(for: .es256, keyID: "k"))]
        for token in tokens {
            let expected: JWTError.Code?
            do throws(JWTError) { _ = try sync.verify(token); expected = nil } catch { expected = error.code }
            var actual: JWTError.Code?
            do throws(JWTError) { _ = try await async.verify(token); actual = nil } catch { actual = error.code }
            #expect(expected == actual, "\(token)")
        }
    }

    @Test("a source with no keys reports keys-unavailable")
    func unavailable() async throws {
        let key = try JWTKey.generate(for: .es256, keyID: "k")
        let error = await #expect(throws: JWTError.self) { _ = try await KeySourceVerifier(source: SwappableKeys(nil), issuer: .anyIssuer, audience: .anyAudience).verify(try Self.token(key)) }
        #expect(error?.code == .keysUnavailable)
    }

    @Test("jku, x5u and jwk headers are never used to find a key")
    func headerKeysIgnored() async throws {
        let attacker = try JWTKey.generate(for: .es256, keyID: "k")
        let trusted = try JWTKey.generate(for: .es256, keyID: "k")
        let source = SwappableKeys(JWKSet(keys: [try trusted.publicKey()]))
        let header = JWTHeaderFields(
            publicJWK: try attacker.publicKey().jwkObject(),
            custom: JSONObject([("jku", .string("http://127.0.0.1:1/jwks")), ("x5u", .string("http://127.0.0.1:1/cert"))]))
        let claims = JWTClaims(JSONObject([("exp", .number(JSONNumber(Int64(Date().timeIntervalSince1970) + 60)))]))
        let token = try JWTSigner(key: attacker).sign(claims, header: header)
        let error = await #expect(throws: JWTError.self) { _ = try await KeySourceVerifier(source: source, issuer: .anyIssuer, audience: .anyAudience).verify(token) }
        #expect(error?.code == .badSignature)
        #expect(source.loads == 0)
    }
}
