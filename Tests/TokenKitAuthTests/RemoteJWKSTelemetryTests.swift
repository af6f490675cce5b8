#if Hummingbird && Postgres
import CoreMetrics
import Foundation
import InMemoryTracing
import MetricsTestKit
import Testing
import TokenKit
import TokenKitAuth
import TokenKitURLSession
import Tracing

@Suite("Remote JWKS: fetch metrics, key gauges and tokenkit.jwks.fetch spans")
struct RemoteJWKSTelemetryTests {
    static let path = "/jwks"

    static func fetches(_ metrics: TestMetrics, _ outcome: String) -> Int64 {
        metrics.counterTotal(label: "tokenkit_jwks_fetches_total", dimensions: [("outcome", outcome)])
    }

    @Test("ok, not_modified and error fetches are counted; the gauges follow the keys held and their age")
    func fetchOutcomesAndGauges() async throws {
        let k1 = try TestSigningKey(kid: "k1"), k2 = try TestSigningKey(kid: "k2")
        let body = try TestSigningKey.jwks([k1, k2])
        try await ScriptedHTTPServer.with { server in
            let metrics = TestMetrics()
            let clock = ManualClock()
            await server.state.set(Self.path) { ifNoneMatch in
                ifNoneMatch == "\"v1\"" ? ScriptedResponse(status: 304, headers: [("ETag", "\"v1\""), ("Cache-Control", "max-age=60")])
                    : .json(body, headers: [("ETag", "\"v1\""), ("Cache-Control", "max-age=60")])
            }
            let source = try withMetricsFactory(metrics) {
                try RemoteJWKS(.url(server.url(Self.path)), transport: URLSessionTransport(),
                               options: RemoteJWKSOptions(fetch: .unhurried, minCacheAge: .zero, maxStaleness: .seconds(300)), clock: clock)
            }
            try await source.prewarm()
            #expect(Self.fetches(metrics, "ok") == 1)
            #expect(try metrics.expectGauge("tokenkit_jwks_keys").lastValue == 2)
            #expect(try metrics.expectGauge("tokenkit_jwks_age_seconds").lastValue == 0)

            clock.advance(by: .seconds(61))
            try await source.prewarm()
            #expect(Self.fetches(metrics, "not_modified") == 1)

            await server.state.set(Self.path, ScriptedResponse(status: 500))
            clock.advance(by: .seconds(100))
            try await source.prewarm()  // fails, but the held keys are within max staleness
            #expect(Self.fetches(metrics, "error") == 1)
            #expect(try metrics.expectGauge("tokenkit_jwks_age_seconds").lastValue == 100)
            #expect(try metrics.expectGauge("tokenkit_jwks_keys").lastValue == 2)

            // Past max staleness, reading the status brings the gauges up to date.
            clock.advance(by: .seconds(300))
            #expect(source.status.keyCount == 0)
            #expect(try metrics.expectGauge("tokenkit_jwks_keys").lastValue == 0)
            #expect(try metrics.expectGauge("tokenkit_jwks_age_seconds").lastValue == 400)

            #expect(Self.fetches(metrics, "ok") == 1 && Self.fetches(metrics, "not_modified") == 1)
            for counter in metrics.counters {
                #expect(counter.label == "tokenkit_jwks_fetches_total")
                #expect(counter.dimensions.count == 1 && ["ok", "not_modified", "error"].contains(counter.dimensions[0].1))
            }
        }
    }

    @Test("while tokens are verified, the gauges are updated at most once a second, from memory")
    func gaugesFromVerification() async throws {
        let k1 = try TestSigningKey(kid: "k1")
        try await ScriptedHTTPServer.with { server in
            let metrics = TestMetrics()
            let clock = ManualClock()
            await server.state.set(Self.path, .json(try TestSigningKey.jwks([k1]), headers: [("Cache-Control", "max-age=3600")]))
            let source = try withMetricsFactory(metrics) {
                try RemoteJWKS(.url(server.url(Self.path)), transport: URLSessionTransport(), options: RemoteJWKSOptions(fetch: .unhurried), clock: clock)
            }
            let verifier = KeySourceVerifier(source: source, issuer: .anyIssuer, audience: .anyAudience)
            _ = try await verifier.verify(try k1.token())
            let age = try metrics.expectGauge("tokenkit_jwks_age_seconds")
            let recorded = age.values.count
            for _ in 0..<100 { _ = try await verifier.verify(try k1.token()) }
            #expect(age.values.count <= recorded + 1, "no gauge update per token")
            clock.advance(by: .seconds(42))
            _ = try await verifier.verify(try k1.token())
            #expect(age.lastValue == 42)
            #expect(await server.state.count(Self.path) == 1)
        }
    }

    @Test("a fetch triggered by a token is a tokenkit.jwks.fetch span inside the caller's span, with outcome and HTTP status")
    func fetchSpans() async throws {
        let k1 = try TestSigningKey(kid: "k1")
        try await ScriptedHTTPServer.with { server in
            let clock = ManualClock()
            await server.state.set(Self.path, .json(try TestSigningKey.jwks([k1])))
            let source = try RemoteJWKS(.url(server.url(Self.path)), transport: URLSessionTransport(), options: RemoteJWKSOptions(fetch: .unhurried), clock: clock)
            let verifier = KeySourceVerifier(source: source, issuer: .anyIssuer, audience: .anyAudience)
            let tracer = InMemoryTracer()
            try await withTracer(tracer) {
                try await withSpan("GET /me") { _ in _ = try await verifier.verify(try k1.token()) }
            }
            let request = try #require(tracer.finishedSpans.first { $0.operationName == "GET /me" })
            let fetch = try #require(tracer.finishedSpans.first { $0.operationName == "tokenkit.jwks.fetch" })
            #expect(fetch.parentSpanID == request.spanID)
            #expect(fetch.attributes.get("tokenkit.outcome") == "ok")
            #expect(fetch.attributes.get("http.response.status_code") == 200)

            await server.state.set(Self.path, ScriptedResponse(status: 502))
            clock.advance(by: .seconds(400))
            tracer.clearAll()
            try? await withTracer(tracer) { try await source.prewarm() }
            let failed = try #require(tracer.finishedSpans.first { $0.operationName == "tokenkit.jwks.fetch" })
            #expect(failed.attributes.get("tokenkit.outcome") == "error")
            #expect(failed.attributes.get("http.response.status_code") == 502)
            #expect(failed.status?.code == .error)
            #expect(failed.errors.isEmpty)
            failed.attributes.forEach { _, value in #expect(!"\(value)".contains("127.0.0.1")) }
        }
    }
}
#endif
