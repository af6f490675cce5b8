import Foundation
import Synchronization
import Testing
@testable import TokenKit

/// `KeySourceVerifier(caching:)`: what a remembered verification may and may not skip.
@Suite("Key sources: the verified-token cache")
struct VerifiedTokenCacheTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    static let issuer = "https://issuer.example", audience = "api://orders"

    /// An ES256 token for the suite's issuer and audience, expiring `lifetime` seconds after
    /// the suite's start.
    static func token(_ key: JWTKey, lifetime: Int64 = 60, sub: String = "alice") throws -> String {
        let now = Int64(start.timeIntervalSince1970)
        return try JWTSigner(key: key).sign(JWTClaims(JSONObject([
            ("iss", .string(issuer)), ("aud", .string(audience)), ("sub", .string(sub)),
            ("iat", .number(JSONNumber(now))), ("exp", .number(JSONNumber(now + lifetime))),
        ])))
    }

    static func verifier(
        _ source: any JWTKeySource, clock: ManualClock, capacity: Int = 100, maxTokenBytes: Int = 4096,
        customCheck: (@Sendable (JWTHeader, JWTClaims) throws(JWTError) -> Void)? = nil
    ) -> KeySourceVerifier {
        KeySourceVerifier(
            source: source, issuer: .exactly(issuer), audience: .exactly(audience),
            options: ValidationOptions(clock: clock, customCheck: customCheck),
            caching: VerifiedTokenCaching(capacity: capacity, maxTokenBytes: maxTokenBytes))
    }

    /// Whether two verified tokens are the very same remembered one (its claims storage).
    static func same(_ a: VerifiedJWT, _ b: VerifiedJWT) -> Bool { a.claimsCache.storage === b.claimsCache.storage }

    static func code(_ body: () async throws(JWTError) -> VerifiedJWT) async -> JWTError.Code? {
        do throws(JWTError) { _ = try await body(); return nil } catch { return error.code }
    }

    @Test("a token verified once is served from the cache the next time, with the same claims")
    func hitServesTheRememberedToken() async throws {
        let key = try JWTKey.generate(for: .es256, keyID: "k")
        let verifier = Self.verifier(JWKSet(keys: [try key.publicKey()]), clock: ManualClock(Self.start))
        let token = try Self.token(key)
        let first = try await verifier.verify(token)
        let second = try await verifier.verify(token)
        #expect(Self.same(first, second))
        #expect(try second.claims.subject() == "alice")
        #expect(verifier.verifiedTokens?.count == 1)
        #expect(verifier.caching == VerifiedTokenCaching(capacity: 100))
    }

    @Test("a remembered token past its exp is refused with the expiry error and forgotten")
    func expiryIsCheckedOnEveryUse() async throws {
        let key = try JWTKey.generate(for: .es256, keyID: "k")
        let keys = JWKSet(keys: [try key.publicKey()])
        let clock = ManualClock(Self.start)
        let verifier = Self.verifier(keys, clock: clock)
        let uncached = KeySourceVerifier(source: keys, issuer: .exactly(Self.issuer), audience: .exactly(Self.audience),
                                         options: ValidationOptions(clock: clock))
        let token = try Self.token(key, lifetime: 60)
        _ = try await verifier.verify(token)
        clock.advance(by: .seconds(61))
        var cachedError: JWTError?, uncachedError: JWTError?
        do throws(JWTError) { _ = try await verifier.verify(token) } catch { cachedError = error }
        do throws(JWTError) { _ = try await uncached.verify(token) } catch { uncachedError = error }
        #expect(cachedError?.code == .expired)
        #expect(cachedError?.reason == uncachedError?.reason)
        #expect(verifier.verifiedTokens?.count == 0)
    }

    @Test("the custom check runs on every use, so a deny list refuses a remembered token")
    func customCheckRunsOnEveryHit() async throws {
        let key = try JWTKey.generate(for: .es256, keyID: "k")
        let denied = Mutex<Set<String>>([])
        let calls = Mutex(0)
        let verifier = Self.verifier(JWKSet(keys: [try key.publicKey()]), clock: ManualClock(Self.start)) { _, claims throws(JWTError) in
            calls.withLock { $0 += 1 }
            let subject = try claims.subject() ?? ""
            if denied.withLock({ $0.contains(subject) }) { throw JWTError(code: .customCheckFailed, reason: "denied") }
        }
        let token = try Self.token(key)
        let first = try await verifier.verify(token)
        let second = try await verifier.verify(token)
        #expect(Self.same(first, second))
        #expect(calls.withLock { $0 } == 2)
        denied.withLock { _ = $0.insert("alice") }
        #expect(await Self.code { () throws(JWTError) in try await verifier.verify(token) } == .customCheckFailed)
        #expect(verifier.verifiedTokens?.count == 0)
    }

    @Test("a refused token is never remembered: it is verified in full every time")
    func refusalsAreNotCached() async throws {
        let key = try JWTKey.generate(for: .es256, keyID: "k")
        let other = try JWTKey.generate(for: .es256, keyID: "k")
        let verifier = Self.verifier(JWKSet(keys: [try key.publicKey()]), clock: ManualClock(Self.start))
        let forged = try Self.token(other)
        for _ in 0..<3 {
            #expect(await Self.code { () throws(JWTError) in try await verifier.verify(forged) } == .badSignature)
        }
        #expect(verifier.verifiedTokens?.count == 0)
    }

    @Test("a remembered token with its signature altered is a different token and is refused")
    func alteredSignatureMisses() async throws {
        let key = try JWTKey.generate(for: .es256, keyID: "k")
        let verifier = Self.verifier(JWKSet(keys: [try key.publicKey()]), clock: ManualClock(Self.start))
        let token = try Self.token(key)
        _ = try await verifier.verify(token)
        // Change one signature character in the middle (never the last, whose low bits are
        // padding): the header and payload are those of the remembered token.
        var bytes = Array(token.utf8)
        let index = bytes.count - 20
        bytes[index] = bytes[index] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        let altered = String(decoding: bytes, as: UTF8.self)
        #expect(await Self.code { () throws(JWTError) in try await verifier.verify(altered) } == .badSignature)
    }

    @Test("after a key rotation under the same kid, a remembered token of the old key is verified again and refused")
    func rotationUnderTheSameKidMisses() async throws {
        let old = try JWTKey.generate(for: .es256, keyID: "k"), new = try JWTKey.generate(for: .es256, keyID: "k")
        let source = SwappableKeys(JWKSet(keys: [try old.publicKey()]))
        let verifier = Self.verifier(source, clock: ManualClock(Self.start))
        let token = try Self.token(old)
        _ = try await verifier.verify(token)
        source.replace(with: JWKSet(keys: [try new.publicKey()]))
        #expect(await Self.code { () throws(JWTError) in try await verifier.verify(token) } == .badSignature)
    }

    @Test("after its kid left the key set, a remembered token is refused as the current keys refuse it")
    func removedKeyMisses() async throws {
        let a = try JWTKey.generate(for: .es256, keyID: "a"), b = try JWTKey.generate(for: .es256, keyID: "b")
        let source = SwappableKeys(JWKSet(keys: [try a.publicKey(), try b.publicKey()]))
        let verifier = Self.verifier(source, clock: ManualClock(Self.start))
        let token = try Self.token(a)
        _ = try await verifier.verify(token)
        source.replace(with: JWKSet(keys: [try b.publicKey()]))
        #expect(await Self.code { () throws(JWTError) in try await verifier.verify(token) } == .noMatchingKey)
    }

    @Test("a token without kid: a key added to the set means a full verification, with the same answer")
    func addedCandidateMisses() async throws {
        let key = try JWTKey.generate(for: .es256), other = try JWTKey.generate(for: .es256)
        let public1 = try key.publicKey()
        let source = SwappableKeys(JWKSet(keys: [public1, try other.publicKey()]))
        let verifier = Self.verifier(source, clock: ManualClock(Self.start))
        let token = try Self.token(key)
        let first = try await verifier.verify(token)
        #expect(Self.same(first, try await verifier.verify(token)))
        source.replace(with: JWKSet(keys: [public1, try other.publicKey(), try JWTKey.generate(for: .es256).publicKey()]))
        let again = try await verifier.verify(token)
        #expect(!Self.same(first, again))
        #expect(Self.same(again, try await verifier.verify(token)))
    }

    @Test("the same key objects in a new key set still serve the remembered token")
    func sameKeysInANewSetHit() async throws {
        let key = try JWTKey.generate(for: .es256, keyID: "k")
        let published = try key.publicKey()
        let source = SwappableKeys(JWKSet(keys: [published]))
        let verifier = Self.verifier(source, clock: ManualClock(Self.start))
        let token = try Self.token(key)
        let first = try await verifier.verify(token)
        source.replace(with: JWKSet(keys: [published]))
        #expect(Self.same(first, try await verifier.verify(token)))
    }

    @Test("never more than capacity tokens are kept; tokens over maxTokenBytes are never kept")
    func bounded() async throws {
        let key = try JWTKey.generate(for: .es256, keyID: "k")
        let verifier = Self.verifier(JWKSet(keys: [try key.publicKey()]), clock: ManualClock(Self.start), capacity: 5, maxTokenBytes: 4096)
        for index in 0..<40 {
            _ = try await verifier.verify(try Self.token(key, sub: "user-\(index)"))
            #expect((verifier.verifiedTokens?.count ?? 0) <= 5)
        }
        #expect(verifier.verifiedTokens?.count == 5)
        let last = try Self.token(key, sub: "last")
        let first = try await verifier.verify(last)
        #expect(Self.same(first, try await verifier.verify(last)), "the newest token is kept")

        let small = Self.verifier(JWKSet(keys: [try key.publicKey()]), clock: ManualClock(Self.start), maxTokenBytes: 100)
        let long = try Self.token(key)
        #expect(long.utf8.count > 100)
        let a = try await small.verify(long), b = try await small.verify(long)
        #expect(!Self.same(a, b))
        #expect(small.verifiedTokens?.count == 0)
    }

    @Test("cached or not, every token gets the same answer, on first and later uses")
    func sameAnswersAsUncached() async throws {
        let key = try JWTKey.generate(for: .es256, keyID: "k")
        let keys = JWKSet(keys: [try key.publicKey()])
        let clock = ManualClock(Self.start)
        let cached = Self.verifier(keys, clock: clock)
        let uncached = KeySourceVerifier(source: keys, issuer: .exactly(Self.issuer), audience: .exactly(Self.audience),
                                         options: ValidationOptions(clock: clock))
        let now = Int64(Self.start.timeIntervalSince1970)
        func signed(_ fields: [(String, JSONValue)]) throws -> String { try JWTSigner(key: key).sign(JWTClaims(JSONObject(fields))) }
        let tokens = [
            try Self.token(key),
            try signed([("iss", .string("https://other")), ("aud", .string(Self.audience)), ("exp", .number(JSONNumber(now + 60)))]),
            try signed([("iss", .string(Self.issuer)), ("aud", .string("api://other")), ("exp", .number(JSONNumber(now + 60)))]),
            try signed([("iss", .string(Self.issuer)), ("aud", .string(Self.audience)), ("exp", .number(JSONNumber(now - 1)))]),
            try signed([("iss", .string(Self.issuer)), ("aud", .string(Self.audience)), ("exp", .number(JSONNumber(now + 60))), ("nbf", .number(JSONNumber(now + 30)))]),
            try Self.token(try JWTKey.generate(for: .es256, keyID: "k")),
            "a.b", "e30.e30.",
        ]
        for round in 0..<2 {
            if round == 1 { clock.advance(by: .seconds(45)) }  // the nbf token becomes valid
            for token in tokens {
                for _ in 0..<2 {
                    let expected = await Self.code { () throws(JWTError) in try await uncached.verify(token) }
                    let actual = await Self.code { () throws(JWTError) in try await cached.verify(token) }
                    #expect(expected == actual, "round \(round): \(token)")
                }
            }
        }
    }

    @Test("many tasks verifying the same and different tokens at once all succeed within the bound")
    func concurrentUse() async throws {
        let key = try JWTKey.generate(for: .es256, keyID: "k")
        let verifier = Self.verifier(JWKSet(keys: [try key.publicKey()]), clock: ManualClock(Self.start), capacity: 8)
        let tokens = try (0..<16).map { try Self.token(key, sub: "user-\($0)") }
        try await withThrowingTaskGroup(of: String?.self) { group in
            for index in 0..<400 {
                let token = tokens[index % tokens.count]
                group.addTask { try await verifier.verify(token).claims.subject() }
            }
            var subjects = Set<String>()
            for try await subject in group { subjects.insert(subject ?? "") }
            #expect(subjects == Set((0..<16).map { "user-\($0)" }))
        }
        #expect((verifier.verifiedTokens?.count ?? 0) <= 8)
    }
}
