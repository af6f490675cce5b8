import Tracing

/// The one way TokenKitAuth wraps an operation in a span (swift-distributed-tracing):
/// `tokenkit.refresh` and `tokenkit.signin`.
///
/// The span is a child of the caller's current span (the task-local context), so a refresh
/// started by a request shows inside that request's trace. Its attributes are the fixed ones
/// given plus `tokenkit.outcome` (`ok`, or the label the caller derives from the error) and,
/// on failure, `tokenkit.error_code` (an ``AuthError/Code`` name); a failure marks the span
/// as failed without recording the error's text. No token, URL or account ever goes on it.
enum AuthSpan {
    /// Runs `body` inside a span named `name`, on the caller's isolation (an actor's
    /// closure stays on its actor); `failureOutcome` names the outcome of an error.
    static func run<T>(
        _ name: String, attributes: [(String, String)], failureOutcome: (AuthError) -> String = { _ in "error" },
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws(AuthError) -> T
    ) async throws(AuthError) -> T {
        let result: Result<T, AuthError> = await withSpan(name, ofKind: .client) { span in
            for (key, value) in attributes { span.attributes[key] = value }
            do throws(AuthError) {
                let value = try await body()
                span.attributes["tokenkit.outcome"] = "ok"
                return .success(value)
            } catch {
                span.attributes["tokenkit.outcome"] = failureOutcome(error)
                span.attributes["tokenkit.error_code"] = error.code.rawValue
                span.setStatus(SpanStatus(code: .error))
                return .failure(error)
            }
        }
        return try result.get()
    }
}
