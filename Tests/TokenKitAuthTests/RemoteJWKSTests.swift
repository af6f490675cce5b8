#if Hummingbird && Postgres
import Foundation
import Logging
import Testing
import TokenKit
import TokenKitAuth
import TokenKitURLSession
import TokenKitTestSupport

@Suite("Remote JWKS against a real server")
struct RemoteJWKSTests {
    static let path = "/jwks"

    /// A source at `server`'s `/jwks` with a manual clock (freshness, cooldown, staleness).
    static func source(
        _ server: ScriptedHTTPServer, clock: ManualClock, options: RemoteJWKSOptions = RemoteJWKSOptions(), logger: Logger? = nil
    ) throws -> RemoteJWKS {
        try RemoteJWKS(.url(server.url(path)), transport: URLSessionTransport(), options: options, logger: logger, clock: clock)
    }

    @Test("key rotation: a new kid is fetched once, and a kid that left is refused")
    func rotation() async throws {
        let k1 = try TestSigningKey(kid: "k1"), k2 = try TestSigningKey(kid: "k2")
        try await ScriptedHTTPServer.with { server in
            let clock = ManualClock()
            await server.state.set(Self.path, .json(try TestSigningKey.jwks([k1])))
            let verifier = KeySourceVerifier(source: try Self.source(server, clock: clock), issuer: .anyIssuer, audience: .anyAudience)
            _ = try await verifier.verify(try k1.token())
            #expect(await server.state.count(Self.path) == 1)

            await server.state.set(Self.path, .json(try TestSigningKey.jwks([k2])))
            clock.advance(by: .seconds(31))
            _ = try await verifier.verify(try k2.token())
            #expect(await server.state.count(Self.path) == 2)

            let error = await #expect(throws: JWTError.self) { _ = try await verifier.verify(try k1.token()) }
            #expect(error?.code == .noMatchingKey)
            #expect(await server.state.count(Self.path) == 2, "the refused kid was asked for within the cooldown")
        }
    }

    @Test("an unknown kid refetches at most once per cooldown")
    func cooldown() async throws {
        let k1 = try TestSigningKey(kid: "k1"), stranger = try TestSigningKey(kid: "nobody")
        try await ScriptedHTTPServer.with { server in
            let clock = ManualClock()
            await server.state.set(Self.path, .json(try TestSigningKey.jwks([k1])))
            let verifier = KeySourceVerifier(source: try Self.source(server, clock: clock, options: RemoteJWKSOptions(cooldown: .seconds(30))), issuer: .anyIssuer, audience: .anyAudience)
            _ = try await verifier.verify(try k1.token())
            for _ in 0..<20 {
                await #expect(throws: JWTError.self) { _ = try await verifier.verify(try stranger.token()) }
            }
            #expect(await server.state.count(Self.path) == 1)
            clock.advance(by: .seconds(30))
            await #expect(throws: JWTError.self) { _ = try await verifier.verify(try stranger.token()) }
            #expect(await server.state.count(Self.path) == 2)
        }
    }

    @Test("1,000 concurrent verifications of tokens with a new kid make exactly one request")
    func thousandConcurrentUnknownKid() async throws {
        let k1 = try TestSigningKey(kid: "k1"), k2 = try TestSigningKey(kid: "k2")
        try await ScriptedHTTPServer.with { server in
            let clock = ManualClock()
            await server.state.set(Self.path, .json(try TestSigningKey.jwks([k1])))
            let source = try Self.source(server, clock: clock)
            try await source.prewarm()
            #expect(await server.state.count(Self.path) == 1)
            clock.advance(by: .seconds(31))
            var slow = ScriptedResponse.json(try TestSigningKey.jwks([k1, k2]))
            slow.delay = 0.3
            await server.state.set(Self.path, slow)
            let verifier = KeySourceVerifier(source: source, issuer: .anyIssuer, audience: .anyAudience)
            let token = try k2.token()
            let verified = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<1000 { group.addTask { (try? await verifier.verify(token)) != nil } }
                var ok = 0
                for try await passed in group where passed { ok += 1 }
                return ok
            }
            #expect(verified == 1000)
            #expect(await server.state.count(Self.path) == 2, "exactly one request for the new kid")
            #expect(source.fetchCount == 2)
        }
    }

    @Test("Cache-Control max-age sets freshness; past it, keys are served while one refetch runs")
    func cacheControl() async throws {
        let k1 = try TestSigningKey(kid: "k1")
        try await ScriptedHTTPServer.with { server in
            let clock = ManualClock()
            await server.state.set(Self.path, .json(try TestSigningKey.jwks([k1]), headers: [("Cache-Control", "public, max-age=120")]))
            let source = try Self.source(server, clock: clock, options: RemoteJWKSOptions(minCacheAge: .zero, cooldown: .zero))
            let verifier = KeySourceVerifier(source: source, issuer: .anyIssuer, audience: .anyAudience)
            _ = try await verifier.verify(try k1.token())
            #expect(source.status.freshUntil == clock.now.addingTimeInterval(120))
            clock.advance(by: .seconds(119))
            _ = try await verifier.verify(try k1.token())
            #expect(await server.state.count(Self.path) == 1)
            clock.advance(by: .seconds(2))
            _ = try await verifier.verify(try k1.token())
            try await waitUntil("background refetch") { await server.state.count(Self.path) == 2 }

            // max-age above the configured bound is clamped.
            await server.state.set(Self.path, .json(try TestSigningKey.jwks([k1]), headers: [("Cache-Control", "max-age=999999999")]))
            let bounded = try Self.source(server, clock: clock, options: RemoteJWKSOptions(maxCacheAge: .seconds(600)))
            try await bounded.prewarm()
            #expect(bounded.status.freshUntil == clock.now.addingTimeInterval(600))
        }
    }

    @Test("a refetch sends If-None-Match with the ETag, and 304 keeps the keys")
    func etag() async throws {
        let k1 = try TestSigningKey(kid: "k1")
        let body = try TestSigningKey.jwks([k1])
        try await ScriptedHTTPServer.with { server in
            let clock = ManualClock()
            await server.state.set(Self.path) { ifNoneMatch in
                ifNoneMatch == "\"v1\"" ? ScriptedResponse(status: 304, headers: [("ETag", "\"v1\"")])
                    : .json(body, headers: [("ETag", "\"v1\""), ("Cache-Control", "max-age=60")])
            }
            let source = try Self.source(server, clock: clock, options: RemoteJWKSOptions(minCacheAge: .zero))
            try await source.prewarm()
            clock.advance(by: .seconds(61))
            try await source.prewarm()
            #expect(await server.state.lastIfNoneMatch[Self.path] == "\"v1\"")
            #expect(await server.state.count(Self.path) == 2)
            #expect(source.status.keyCount == 1 && source.status.lastError == nil)
            #expect(source.status.lastFetch == clock.now)
            _ = try await KeySourceVerifier(source: source, issuer: .anyIssuer, audience: .anyAudience).verify(try k1.token())
        }
    }

    @Test("through a 5xx outage the last good keys are served up to max staleness, visibly")
    func outage() async throws {
        let k1 = try TestSigningKey(kid: "k1")
        try await ScriptedHTTPServer.with { server in
            let clock = ManualClock()
            let logs = LogCapture()
            await server.state.set(Self.path, .json(try TestSigningKey.jwks([k1]), headers: [("Cache-Control", "max-age=60")]))
            let source = try Self.source(server, clock: clock, options: RemoteJWKSOptions(minCacheAge: .zero, cooldown: .seconds(10), maxStaleness: .seconds(300)),
                                         logger: logs.logger())
            let verifier = KeySourceVerifier(source: source, issuer: .anyIssuer, audience: .anyAudience)
            try await source.prewarm()
            await server.state.set(Self.path, ScriptedResponse(status: 503))

            clock.advance(by: .seconds(61))
            _ = try await verifier.verify(try k1.token())
            try await waitUntil("failed background refetch") { source.status.lastError != nil }
            let status = source.status
            #expect(status.isStale && status.keyCount == 1)
            #expect(status.lastError?.contains("HTTP 503") == true)
            #expect(logs.all.contains { $0.hasPrefix("warning JWKS fetch failed") && $0.contains("HTTP 503") })

            clock.advance(by: .seconds(200))
            _ = try await verifier.verify(try k1.token())

            clock.advance(by: .seconds(100))
            let error = await #expect(throws: JWTError.self) { _ = try await verifier.verify(try k1.token()) }
            #expect(error?.code == .keysUnavailable)
            #expect(error?.reason.contains("HTTP 503") == true)
            #expect(source.status.keyCount == 0)
        }
    }

    @Test("a slow server times out: the caller gets its answer at the timeout")
    func slowServer() async throws {
        let k1 = try TestSigningKey(kid: "k1")
        try await ScriptedHTTPServer.with { server in
            var slow = ScriptedResponse.json(try TestSigningKey.jwks([k1]))
            slow.delay = 5
            await server.state.set(Self.path, slow)
            let source = try Self.source(server, clock: ManualClock(), options: RemoteJWKSOptions(fetch: RemoteFetchOptions(timeout: .milliseconds(300))))
            let started = ContinuousClock.now
            let error = await #expect(throws: JWTError.self) { try await source.prewarm() }
            #expect(error?.code == .keysUnavailable)
            #expect(error?.reason.contains("(total deadline)") == true)
            #expect(ContinuousClock.now - started < .seconds(3))
        }
    }

    @Test("a body over the 1 MiB default cap is refused")
    func oversizedBody() async throws {
        try await ScriptedHTTPServer.with { server in
            let padding = String(repeating: " ", count: 1024 * 1024)
            await server.state.set(Self.path, .json("{\"keys\":[]}" + padding))
            let source = try Self.source(server, clock: ManualClock())
            let error = await #expect(throws: JWTError.self) { try await source.prewarm() }
            #expect(error?.reason.contains("larger than 1048576 bytes") == true)
        }
    }

    @Test("a redirect to another origin is refused; a same-origin redirect is followed")
    func redirect() async throws {
        let k1 = try TestSigningKey(kid: "k1")
        try await ScriptedHTTPServer.with { server in
            await server.state.set("/moved", .json(try TestSigningKey.jwks([k1])))
            await server.state.set(Self.path, ScriptedResponse(status: 301, headers: [("Location", "http://localhost:\(server.port)/moved")]))
            let refused = try Self.source(server, clock: ManualClock())
            let error = await #expect(throws: JWTError.self) { try await refused.prewarm() }
            #expect(error?.reason.contains("another origin") == true)
            #expect(await server.state.count("/moved") == 0)

            await server.state.set(Self.path, ScriptedResponse(status: 307, headers: [("Location", "/moved")]))
            let followed = try Self.source(server, clock: ManualClock())
            try await followed.prewarm()
            #expect(followed.status.keyCount == 1)
        }
    }

    @Test("symmetric or private keys in a remote JWKS are refused; plain http off loopback is refused")
    func refusedDocuments() async throws {
        try await ScriptedHTTPServer.with { server in
            let secret = try JWTKey.hmac(secret: Array(repeating: 7, count: 32), keyID: "h").jwk(includingPrivate: true)
            await server.state.set(Self.path, .json("{\"keys\":[\(secret)]}"))
            let source = try Self.source(server, clock: ManualClock())
            let error = await #expect(throws: JWTError.self) { try await source.prewarm() }
            #expect(error?.reason.contains("symmetric") == true)

            let privateJWK = try JWTKey.generate(for: .es256, keyID: "p").jwk(includingPrivate: true)
            await server.state.set(Self.path, .json("{\"keys\":[\(privateJWK)]}"))
            let second = try Self.source(server, clock: ManualClock())
            let privateError = await #expect(throws: JWTError.self) { try await second.prewarm() }
            #expect(privateError?.reason.contains("private key") == true)
        }
        #expect(throws: AuthError.self) {
            _ = try RemoteJWKS(.url(URL(string: "http://keys.example/jwks")!), transport: URLSessionTransport())
        }
    }

    @Test("discovery: the issuer's document gives jwks_uri; a mismatching issuer gives no keys")
    func discovery() async throws {
        let k1 = try TestSigningKey(kid: "k1")
        try await ScriptedHTTPServer.with { server in
            let issuer = server.baseURL
            await server.state.set("/.well-known/openid-configuration", .json(#"{"issuer":"\#(issuer)","jwks_uri":"\#(issuer)/keys"}"#))
            await server.state.set("/keys", .json(try TestSigningKey.jwks([k1])))
            let source = try RemoteJWKS(.discovery(issuer: issuer), transport: URLSessionTransport())
            let verified = try await KeySourceVerifier(source: source, issuer: .exactly(issuer), audience: .anyAudience)
                .verify(try k1.token(issuer: issuer))
            #expect(try verified.claims.issuer() == issuer)

            let wrong = try RemoteJWKS(.discovery(issuer: issuer + "/"), transport: URLSessionTransport())
            await server.state.set("/.well-known/openid-configuration", .json(#"{"issuer":"\#(issuer)","jwks_uri":"\#(issuer)/keys"}"#))
            let error = await #expect(throws: JWTError.self) { try await wrong.prewarm() }
            #expect(error?.reason.contains("expected exactly") == true)
        }
    }

    @Test("discovery: once the document's max-age has passed, it is read again and a moved jwks_uri is followed")
    func movedJWKSURI() async throws {
        let k1 = try TestSigningKey(kid: "k1"), k2 = try TestSigningKey(kid: "k2")
        try await ScriptedHTTPServer.with { server in
            let issuer = server.baseURL
            let clock = ManualClock()
            let document = "/.well-known/openid-configuration"
            await server.state.set(document, .json(#"{"issuer":"\#(issuer)","jwks_uri":"\#(issuer)/keys-1"}"#, headers: [("Cache-Control", "max-age=600")]))
            await server.state.set("/keys-1", .json(try TestSigningKey.jwks([k1]), headers: [("Cache-Control", "max-age=60")]))
            await server.state.set("/keys-2", .json(try TestSigningKey.jwks([k2])))
            let source = try RemoteJWKS(.discovery(issuer: issuer), transport: URLSessionTransport(), clock: clock)
            let verifier = KeySourceVerifier(source: source, issuer: .exactly(issuer), audience: .anyAudience)
            _ = try await verifier.verify(try k1.token(issuer: issuer))

            // The issuer moves its keys; the document is still fresh: keys-1 is refetched.
            await server.state.set(document, .json(#"{"issuer":"\#(issuer)","jwks_uri":"\#(issuer)/keys-2"}"#))
            clock.advance(by: .seconds(61))
            await #expect(throws: JWTError.self) { _ = try await verifier.verify(try k2.token(issuer: issuer)) }
            #expect(await server.state.count(document) == 1)
            #expect(await server.state.count("/keys-1") == 2)

            // Past the document's max-age: read again, keys-2 fetched, the new kid verifies.
            clock.advance(by: .seconds(600))
            _ = try await verifier.verify(try k2.token(issuer: issuer))
            #expect(await server.state.count(document) == 2)
            #expect(await server.state.count("/keys-2") == 1)

            // A failed re-read keeps the jwks_uri found before.
            await server.state.set(document, ScriptedResponse(status: 500))
            clock.advance(by: .seconds(86_400))
            _ = try await verifier.verify(try k2.token(issuer: issuer))
            #expect(await server.state.count(document) == 3)
            #expect(await server.state.count("/keys-2") == 2)
        }
    }

    @Test("the cooldown is at least 1 s: a zero or negative one becomes 1 s, and two unknown kids in one second make one fetch")
    func cooldownFloor() async throws {
        #expect(RemoteJWKSOptions(cooldown: .zero).cooldown == .seconds(1))
        #expect(RemoteJWKSOptions(cooldown: .milliseconds(10)).cooldown == .seconds(1))
        var options = RemoteJWKSOptions()
        options.cooldown = .milliseconds(999)
        #expect(options.cooldown == .seconds(1))
        options.cooldown = .seconds(5)
        #expect(options.cooldown == .seconds(5))
        let k1 = try TestSigningKey(kid: "k1"), stranger = try TestSigningKey(kid: "nobody")
        try await ScriptedHTTPServer.with { server in
            let clock = ManualClock()
            await server.state.set(Self.path, .json(try TestSigningKey.jwks([k1])))
            let source = try Self.source(server, clock: clock, options: RemoteJWKSOptions(cooldown: .zero))
            let verifier = KeySourceVerifier(source: source, issuer: .anyIssuer, audience: .anyAudience)
            _ = try await verifier.verify(try k1.token())
            clock.advance(by: .milliseconds(500))
            await #expect(throws: JWTError.self) { _ = try await verifier.verify(try stranger.token()) }
            #expect(await server.state.count(Self.path) == 1)
            clock.advance(by: .milliseconds(500))
            await #expect(throws: JWTError.self) { _ = try await verifier.verify(try stranger.token()) }
            #expect(await server.state.count(Self.path) == 2)
        }
    }

    @Test("keys unavailable says when the next fetch may run (the rest of the cooldown, at least 1 s)")
    func unavailableRetryAfter() async throws {
        let k1 = try TestSigningKey(kid: "k1")
        try await ScriptedHTTPServer.with { server in
            let clock = ManualClock()
            await server.state.set(Self.path, ScriptedResponse(status: 503))
            let source = try Self.source(server, clock: clock, options: RemoteJWKSOptions(cooldown: .seconds(30)))
            let verifier = KeySourceVerifier(source: source, issuer: .anyIssuer, audience: .anyAudience)
            let first = await #expect(throws: JWTError.self) { _ = try await verifier.verify(try k1.token()) }
            #expect(first?.code == .keysUnavailable)
            #expect(first?.retryAfter == .seconds(30))
            clock.advance(by: .seconds(29.5))
            let later = await #expect(throws: JWTError.self) { _ = try await verifier.verify(try k1.token()) }
            #expect(later?.retryAfter == .seconds(1))
            #expect(source.status.lastErrorCode == .invalidResponse)
            #expect(await server.state.count(Self.path) == 1)
        }
    }

    @Test("several issuers: each token is checked only with its own issuer's keys")
    func issuerKeySources() async throws {
        let a = try TestSigningKey(kid: "same"), b = try TestSigningKey(kid: "same")
        let sources = try IssuerKeySources(exactly: [
            "https://a.example": JWKSet(keys: [try a.key.publicKey()]),
            "https://b.example": JWKSet(keys: [try b.key.publicKey()]),
        ])
        let verifier = KeySourceVerifier(source: sources, issuer: .anyIssuer, audience: .anyAudience)
        _ = try await verifier.verify(try a.token(issuer: "https://a.example"))
        _ = try await verifier.verify(try b.token(issuer: "https://b.example"))
        let forged = await #expect(throws: JWTError.self) { _ = try await verifier.verify(try a.token(issuer: "https://b.example")) }
        #expect(forged?.code == .badSignature)
        let unknown = await #expect(throws: JWTError.self) { _ = try await verifier.verify(try a.token(issuer: "https://c.example")) }
        #expect(unknown?.code == .noMatchingKey)
        let none = await #expect(throws: JWTError.self) { _ = try await verifier.verify(try a.token()) }
        #expect(none?.code == .noMatchingKey)
    }
}
#endif
