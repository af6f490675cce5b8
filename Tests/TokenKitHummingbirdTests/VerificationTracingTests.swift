#if Hummingbird
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InMemoryTracing
import Testing
import TokenKit
import TokenKitHummingbird
import Tracing

@Suite("Hummingbird authenticator: tokenkit.verify spans")
struct VerificationTracingTests {
    typealias Keys = JWTAuthenticatorTests.Keys

    /// The finished `tokenkit.verify` spans after `body`, run with `tracer` in a `request` span.
    static func spans(_ tracer: InMemoryTracer, request: @escaping @Sendable () async throws -> Void) async throws -> (parent: String, verify: [FinishedInMemorySpan]) {
        try await withTracer(tracer) {
            try await withSpan("request") { _ in try await request() }
        }
        let finished = tracer.finishedSpans
        let parent = finished.first { $0.operationName == "request" }?.spanID ?? "none"
        return (parent, finished.filter { $0.operationName == "tokenkit.verify" })
    }

    @Test("each outcome gives one tokenkit.verify span inside the request's span, with bounded attributes")
    func outcomes() async throws {
        let keys = try Keys(), stranger = try Keys(kid: "nobody")
        let app = JWTAuthenticatorTests.app(source: JWKSet(keys: [try keys.signing.publicKey()]))
        let good = try keys.token(), expired = try keys.token(exp: Date().timeIntervalSince1970 - 600), unknown = try stranger.token()
        try await app.test(.router) { client in
            let cases: [(String, HTTPResponse.Status, [String: SpanAttribute])] = [
                (good, .ok, ["tokenkit.outcome": "ok", "tokenkit.alg": "ES256"]),
                (expired, .unauthorized, ["tokenkit.outcome": "invalid_token", "tokenkit.reason": "expired", "http.response.status_code": 401]),
                (unknown, .unauthorized, ["tokenkit.outcome": "invalid_token", "tokenkit.reason": "unknown_kid", "http.response.status_code": 401]),
            ]
            for (token, status, attributes) in cases {
                let tracer = InMemoryTracer()
                let (parent, verify) = try await Self.spans(tracer) {
                    try await client.execute(uri: "/me", method: .get, headers: JWTAuthenticatorTests.bearer(token)) { #expect($0.status == status) }
                }
                #expect(verify.count == 1)
                let span = try #require(verify.first)
                #expect(span.parentSpanID == parent, "the verify span is a child of the request's span")
                for (name, value) in attributes { #expect(span.attributes.get(name) == value, "\(name)") }
                #expect((span.status?.code == .error) == (status != .ok))
                #expect(span.errors.isEmpty, "no error text is recorded")
                span.attributes.forEach { _, value in #expect(!"\(value)".contains(token)) }
            }
        }
    }

    @Test("keys unavailable: the span says unavailable and 503")
    func unavailable() async throws {
        let keys = try Keys()
        let app = JWTAuthenticatorTests.app(source: UnreachableKeys(retryAfter: .seconds(2)))
        let token = try keys.token()
        try await app.test(.router) { client in
            let tracer = InMemoryTracer()
            let (_, verify) = try await Self.spans(tracer) {
                try await client.execute(uri: "/me", method: .get, headers: JWTAuthenticatorTests.bearer(token)) { #expect($0.status == .serviceUnavailable) }
            }
            let span = try #require(verify.first)
            #expect(span.attributes.get("tokenkit.outcome") == "unavailable")
            #expect(span.attributes.get("http.response.status_code") == 503)
        }
    }
}
#endif
