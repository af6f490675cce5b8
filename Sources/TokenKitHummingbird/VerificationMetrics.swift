#if Hummingbird
import CoreMetrics
import TokenKit

/// The verification series, created once per middleware from the metrics factory in force
/// when it is built (`MetricsSystem.factory`: the application's bootstrapped backend, or a
/// no-op one) and reused for every request: one counter per fixed label value, so a request
/// never creates a metric or builds a label.
///
/// - `tokenkit_verifications_total{result}` — see ``VerificationResult``;
/// - `tokenkit_verification_failures_total{reason}` — see ``VerificationFailureReason``;
/// - `tokenkit_verification_duration_seconds` — how long verifying a token took (key loading
///   included);
/// - `tokenkit_verification_cache_total{outcome}` — `hit` (a token verified before with the
///   same keys: only its claims were checked again) or `miss` (verified in full); only when
///   the verifier has a verified-token cache (the series does not exist otherwise).
final class VerificationMetrics: Sendable {
    static let resultsLabel = "tokenkit_verifications_total"
    static let failuresLabel = "tokenkit_verification_failures_total"
    static let durationLabel = "tokenkit_verification_duration_seconds"
    static let cacheLabel = "tokenkit_verification_cache_total"

    private let results: [Counter]
    private let failures: [Counter]
    private let duration: CoreMetrics.Timer
    /// `hit` and `miss`, when the verifier caches.
    private let cacheLookups: (hit: Counter, miss: Counter)?

    init(factory: any MetricsFactory = MetricsSystem.factory, caching: Bool = false) {
        cacheLookups = caching
            ? (Counter(label: Self.cacheLabel, dimensions: [("outcome", "hit")], factory: factory),
               Counter(label: Self.cacheLabel, dimensions: [("outcome", "miss")], factory: factory))
            : nil
        results = VerificationResult.allCases.map {
            Counter(label: Self.resultsLabel, dimensions: [("result", $0.label)], factory: factory)
        }
        failures = VerificationFailureReason.allCases.map {
            Counter(label: Self.failuresLabel, dimensions: [("reason", $0.label)], factory: factory)
        }
        duration = CoreMetrics.Timer(label: Self.durationLabel, dimensions: [], factory: factory)
    }

    /// Counts one request's outcome.
    func count(_ result: VerificationResult) {
        results[result.rawValue].increment()
    }

    /// Counts a refused token: `invalid_token` and its reason.
    func countRefusal(_ reason: VerificationFailureReason) {
        results[VerificationResult.invalidToken.rawValue].increment()
        failures[reason.rawValue].increment()
    }

    /// Counts what the verified-token cache did with one token.
    func countCacheLookup(_ lookup: VerifiedTokenLookup) {
        switch lookup {
        case .hit: cacheLookups?.hit.increment()
        case .miss: cacheLookups?.miss.increment()
        }
    }

    /// Records how long one verification took.
    func recordDuration(_ elapsed: Duration) {
        let (seconds, attoseconds) = elapsed.components
        duration.recordNanoseconds(seconds &* 1_000_000_000 &+ attoseconds / 1_000_000_000)
    }
}
#endif
