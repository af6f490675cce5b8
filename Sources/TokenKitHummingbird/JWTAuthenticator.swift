#if Hummingbird
import Hummingbird
import HummingbirdAuth
import TokenKit
import Tracing

/// A hummingbird-auth `AuthenticatorMiddleware` that verifies the request's Bearer token
/// with a ``TokenKit/KeySourceVerifier`` and puts a ``VerifiedToken`` into the context.
///
/// Guarantees:
/// - the token is read from the single `Authorization` header (RFC 6750 §2.1; scheme
///   case-insensitive); tokens in query strings or bodies are never read;
/// - no `Authorization` header, or another scheme: the request goes on without identity
///   (use ``RequireScopesMiddleware`` or hummingbird-auth's `IsAuthenticatedMiddleware`
///   on protected routes);
/// - a rejected token ends the request with `401` and `WWW-Authenticate: Bearer realm="…",
///   error="invalid_token", error_description="…"` (see ``BearerError``), and so does a
///   Bearer credential that is not a `b64token`;
/// - two `Authorization` headers, or a Bearer token in the header while the query string
///   has an `access_token` too, end the request with `400` `invalid_request` (RFC 6750 §3.1);
/// - when the verifier's key source cannot supply keys (``TokenKit/JWTError/Code/keysUnavailable``:
///   no key set fetched yet, or the last one is past its maximum staleness), the request
///   ends with `503`, `Retry-After` and `temporarily_unavailable`, never `401` (see
///   ``BearerError/temporarilyUnavailable(retryAfter:realm:)``); this is the one place that
///   maps that code to a status. An unknown `kid` while keys are held stays `401`;
/// - a key fetch is an `await` on the verifier's key source: it never blocks the event
///   loop, and concurrent requests share one fetch;
/// - each token it reads is counted in `tokenkit_verifications_total{result}` (`ok`,
///   `invalid_token`, `unavailable`), each refusal in
///   `tokenkit_verification_failures_total{reason}`, and its verification time in
///   `tokenkit_verification_duration_seconds`, and, when the verifier has
///   ``TokenKit/KeySourceVerifier/caching``, whether its cache had the token in
///   `tokenkit_verification_cache_total{outcome}` (`hit`, `miss`) (swift-metrics, the backend the application
///   bootstrapped when the middleware was built; a no-op one if none), inside a
///   `tokenkit.verify` span (swift-distributed-tracing) with the outcome, the reason, the
///   verified `alg` and the answer's HTTP status. Labels and attributes never carry the
///   token, its subject or issuer, or any value read from it.
public struct JWTAuthenticator<Context: AuthRequestContext>: AuthenticatorMiddleware where Context.Identity == VerifiedToken {
    /// The verifier (key source and claim rules).
    public let verifier: KeySourceVerifier
    /// The realm named in challenges.
    public let realm: String
    /// The claim roles are read from.
    public let rolesClaim: String
    /// The `Retry-After` of a `503` when the key source gives no hint of its own
    /// (``TokenKit/JWTError/retryAfter``).
    public let unavailableRetryAfter: Duration
    let metrics: VerificationMetrics

    /// An authenticator verifying with `verifier`.
    ///
    /// - Parameter unavailableRetryAfter: `Retry-After` for a `503` when the key source does
    ///   not say when it will try again (a `RemoteJWKS` does: the end of its cooldown).
    public init(verifier: KeySourceVerifier, realm: String, rolesClaim: String = "roles",
                unavailableRetryAfter: Duration = .seconds(30), context: Context.Type = Context.self) {
        self.verifier = verifier
        self.realm = realm
        self.rolesClaim = rolesClaim
        self.unavailableRetryAfter = unavailableRetryAfter
        self.metrics = VerificationMetrics(caching: verifier.caching != nil)
    }

    /// The verified identity, `nil` when no Bearer token was sent; throws ``BearerError``
    /// when the token or the header is refused, or when keys are unavailable.
    public func authenticate(request: Request, context: Context) async throws -> VerifiedToken? {
        let token: String
        switch BearerCredential.find(in: request) {
        case .none:
            return nil
        case .malformed(let why):
            metrics.countRefusal(.malformed)
            throw BearerError.invalidToken(why, realm: realm)
        case .invalidRequest(let why):
            metrics.countRefusal(.malformed)
            throw BearerError.invalidRequest(why, realm: realm)
        case .token(let found):
            token = found
        }
        let outcome = await withSpan("tokenkit.verify") { span in
            let started = ContinuousClock.now
            let outcome = await verify(token, context: context)
            metrics.recordDuration(ContinuousClock.now - started)
            outcome.annotate(span)
            return outcome
        }
        return try outcome.identity.get()
    }

    /// Verifies `token` and counts the outcome; never throws.
    private func verify(_ token: String, context: Context) async -> VerificationOutcome {
        var lookup: VerifiedTokenLookup?
        defer { if let lookup { metrics.countCacheLookup(lookup) } }
        do throws(JWTError) {
            let verified = try await verifier.verify(token, cacheLookup: &lookup)
            metrics.count(.ok)
            return VerificationOutcome(identity: .success(VerifiedToken(verified, rolesClaim: rolesClaim)),
                                       result: .ok, reason: nil, algorithm: verified.header.algorithm)
        } catch where error.code == .keysUnavailable {
            context.logger.debug("bearer token not verified: keys unavailable", metadata: ["reason": "\(error.code)"])
            metrics.count(.unavailable)
            let refusal = BearerError.temporarilyUnavailable(retryAfter: error.retryAfter ?? unavailableRetryAfter, realm: realm)
            return VerificationOutcome(identity: .failure(refusal), result: .unavailable, reason: nil, algorithm: nil)
        } catch {
            context.logger.debug("bearer token refused", metadata: ["reason": "\(error.code)"])
            let reason = VerificationFailureReason(error.code)
            metrics.countRefusal(reason)
            return VerificationOutcome(identity: .failure(BearerError.invalidToken(error.reason, realm: realm)),
                                       result: .invalidToken, reason: reason, algorithm: nil)
        }
    }
}

/// What one verification gave: the identity or the refusal, and its bounded labels.
struct VerificationOutcome: Sendable {
    let identity: Result<VerifiedToken, BearerError>
    let result: VerificationResult
    let reason: VerificationFailureReason?
    let algorithm: JWTAlgorithm?

    /// Puts the outcome on the `tokenkit.verify` span: `tokenkit.outcome`, `tokenkit.reason`,
    /// `tokenkit.alg` (verified tokens only) and `http.response.status_code` (refusals);
    /// a refusal also marks the span as failed, without recording any error text.
    func annotate(_ span: any Span) {
        span.attributes["tokenkit.outcome"] = result.label
        if let reason { span.attributes["tokenkit.reason"] = reason.label }
        if let algorithm { span.attributes["tokenkit.alg"] = algorithm.name }
        if case .failure(let refusal) = identity {
            span.attributes["http.response.status_code"] = Int(refusal.status.code)
            span.setStatus(SpanStatus(code: .error))
        }
    }
}
#endif
