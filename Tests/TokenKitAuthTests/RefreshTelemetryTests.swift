#if Hummingbird && Postgres
import CoreMetrics
import Foundation
import InMemoryTracing
import MetricsTestKit
import Testing
import TokenKitStore
import TokenKitTestSupport
@testable import TokenKitAuth
import Tracing

@Suite("AuthProvider: refresh metrics and tokenkit.refresh spans")
struct RefreshTelemetryTests {
    static func total(_ metrics: TestMetrics, _ outcome: String) -> Int64 {
        metrics.counterTotal(label: "tokenkit_refreshes_total", dimensions: [("outcome", outcome)])
    }

    @Test("ok, invalid_grant and error are counted under their fixed labels, each timed")
    func outcomes() async throws {
        try await Fixture.with { f in
            let metrics = TestMetrics()
            try await f.seed(expiresIn: -5)
            let provider = try withMetricsFactory(metrics) { try f.provider() }
            _ = try await provider.validAccessToken()
            #expect(Self.total(metrics, "ok") == 1)

            // A 503 from the token endpoint: error.
            f.clock.advance(by: .seconds(7200))
            await f.state.injectFailures(1)
            await #expect(throws: AuthError.self) { _ = try await provider.validAccessToken() }
            #expect(Self.total(metrics, "error") == 1)

            // A rejected refresh token (a fresh provider: the first one is backing off): invalid_grant.
            let second = try withMetricsFactory(metrics) { try f.provider() }
            await f.state.injectFailures(1, status: 400, body: #"{"error":"invalid_grant"}"#)
            let rejected = await #expect(throws: AuthError.self) { _ = try await second.validAccessToken() }
            #expect(rejected?.code == .signInRequired)
            #expect(Self.total(metrics, "invalid_grant") == 1)

            #expect(Self.total(metrics, "ok") == 1 && Self.total(metrics, "error") == 1)
            #expect(try metrics.expectTimer("tokenkit_refresh_duration_seconds").values.count == 3)
            for counter in metrics.counters {
                #expect(counter.label == "tokenkit_refreshes_total")
                #expect(counter.dimensions.count == 1 && ["ok", "invalid_grant", "error"].contains(counter.dimensions[0].1))
            }
        }
    }

    @Test("tokenkit_refresh_waiters records how many callers shared one refresh")
    func waiters() async throws {
        try await Fixture.with { f in
            let metrics = TestMetrics()
            try await f.seed(expiresIn: -5)
            let provider = try withMetricsFactory(metrics) { try f.provider() }
            await f.state.closeGate()
            let callers = (0..<20).map { _ in Task { try await provider.validAccessToken() } }
            try await waitUntil("20 waiters") { await provider.waiterCount == 20 }
            await f.state.openGate()
            for caller in callers { _ = try await caller.value }
            #expect(await f.state.refreshCount == 1)
            #expect(try metrics.expectRecorder("tokenkit_refresh_waiters").values == [20])
            // A call that needs no refresh records nothing.
            _ = try await provider.validAccessToken()
            #expect(try metrics.expectRecorder("tokenkit_refresh_waiters").values == [20])
        }
    }

    @Test("a refresh caused through AuthorizingHTTPTransport is a tokenkit.refresh span inside the caller's span, and the request carries the trace context")
    func refreshInsideRequestSpan() async throws {
        try await Fixture.with { f in
            try await f.seed(expiresIn: -5)
            let api = AuthorizingHTTPTransport(wrapping: f.transport, provider: try f.provider())
            let tracer = InMemoryTracer()
            let status = try await withTracer(tracer) {
                try await withSpan("GET /resource") { _ in
                    try await api.send(HTTPTransportRequest(method: "GET", url: f.server.resourceURL)).status
                }
            }
            #expect(status == 200)
            let spans = tracer.finishedSpans
            let request = try #require(spans.first { $0.operationName == "GET /resource" })
            let refresh = try #require(spans.first { $0.operationName == "tokenkit.refresh" })
            #expect(refresh.parentSpanID == request.spanID)
            #expect(refresh.traceID == request.traceID)
            #expect(refresh.attributes.get("tokenkit.grant") == "refresh_token")
            #expect(refresh.attributes.get("tokenkit.outcome") == "ok")
            #expect(refresh.status?.code != .error)
            let injected = tracer.performedContextInjections.map(\.values)
            #expect(injected.contains { $0[InMemoryTracer.traceIDKey] == request.traceID }, "\(injected)")
        }
    }

    @Test("a failed refresh's span says invalid_grant or error, with the error code and no error text")
    func failedRefreshSpans() async throws {
        try await Fixture.with { f in
            let tracer = InMemoryTracer()
            for (status, body, outcome) in [(400, #"{"error":"invalid_grant"}"#, "invalid_grant"),
                                            (503, #"{"error":"temporarily_unavailable"}"#, "error")] {
                try await f.seed(expiresIn: -5)
                let provider = try f.provider()
                await f.state.injectFailures(1, status: status, body: body)
                await withTracer(tracer) {
                    _ = try? await provider.validAccessToken()
                }
                let span = try #require(tracer.popFinishedSpans().first { $0.operationName == "tokenkit.refresh" })
                #expect(span.attributes.get("tokenkit.outcome") == .string(outcome))
                let code = span.attributes.get("tokenkit.error_code")
                #expect((code == .string("sign-in-required")) == (outcome == "invalid_grant"), "\(String(describing: code))")
                #expect(span.status?.code == .error)
                #expect(span.errors.isEmpty)
            }
        }
    }
}
#endif
