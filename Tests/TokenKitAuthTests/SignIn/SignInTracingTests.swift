#if Hummingbird && Postgres
import Foundation
import InMemoryTracing
import Testing
import TokenKitAuth
import Tracing

@Suite("Sign-in: tokenkit.signin spans")
struct SignInTracingTests {
    @Test("a device sign-in is one tokenkit.signin span inside the caller's span: ok, or the failure's code without its text")
    func deviceFlow() async throws {
        let flows = DeviceCodeFailureTests()
        let cases: [([ScriptedTransport.Step], String, String?)] = [
            ([DeviceCodeFailureTests.device(), DeviceCodeFailureTests.pending, DeviceCodeFailureTests.granted], "ok", nil),
            ([DeviceCodeFailureTests.device(), DeviceCodeFailureTests.error("access_denied")], "error", "access-denied"),
        ]
        for (steps, outcome, code) in cases {
            let tracer = InMemoryTracer()
            try await withTracer(tracer) {
                try await withSpan("sign in") { _ in _ = try await flows.run(steps) }
            }
            let spans = tracer.finishedSpans
            let parent = try #require(spans.first { $0.operationName == "sign in" })
            let signIn = spans.filter { $0.operationName == "tokenkit.signin" }
            #expect(signIn.count == 1)
            let span = try #require(signIn.first)
            #expect(span.parentSpanID == parent.spanID)
            #expect(span.attributes.get("tokenkit.flow") == "device_code")
            #expect(span.attributes.get("tokenkit.outcome") == .string(outcome))
            #expect(span.attributes.get("tokenkit.error_code") == code.map { .string($0) })
            #expect(span.errors.isEmpty)
        }
    }
}
#endif
