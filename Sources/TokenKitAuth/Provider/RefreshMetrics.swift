import CoreMetrics

/// The refresh series of one ``AuthProvider``, created once (at its init, from the metrics
/// factory in force then: the application's bootstrapped backend, or a no-op one) and reused:
///
/// - `tokenkit_refreshes_total{outcome}` — `ok`, `invalid_grant` (the refresh token was
///   rejected: sign-in required), `error` (anything else: network, endpoint errors, bad
///   answers);
/// - `tokenkit_refresh_duration_seconds` — how long the call to the token endpoint took;
/// - `tokenkit_refresh_waiters` — for each refresh, how many callers shared it (a
///   histogram: 1 when nobody else was waiting).
///
/// A client credentials acquisition (nothing to refresh) counts as a refresh. Labels carry
/// only the fixed outcome names: never a token, account or URL.
final class RefreshMetrics: Sendable {
    static let refreshesLabel = "tokenkit_refreshes_total"
    static let durationLabel = "tokenkit_refresh_duration_seconds"
    static let waitersLabel = "tokenkit_refresh_waiters"

    /// How a refresh ended (the `outcome` label).
    enum Outcome: Int, CaseIterable {
        case ok, invalidGrant, error

        /// The outcome of a refresh that failed with `error`.
        init(_ error: AuthError) {
            self = error.code == .signInRequired ? .invalidGrant : .error
        }

        var label: String {
            switch self {
            case .ok: "ok"
            case .invalidGrant: "invalid_grant"
            case .error: "error"
            }
        }
    }

    private let refreshes: [Counter]
    private let duration: CoreMetrics.Timer
    private let waiters: Recorder

    init(factory: any MetricsFactory = MetricsSystem.factory) {
        refreshes = Outcome.allCases.map { Counter(label: Self.refreshesLabel, dimensions: [("outcome", $0.label)], factory: factory) }
        duration = CoreMetrics.Timer(label: Self.durationLabel, dimensions: [], factory: factory)
        waiters = Recorder(label: Self.waitersLabel, dimensions: [], aggregate: true, factory: factory)
    }

    /// Counts one finished refresh and records how long it took.
    func record(_ outcome: Outcome, elapsed: Duration) {
        refreshes[outcome.rawValue].increment()
        let (seconds, attoseconds) = elapsed.components
        duration.recordNanoseconds(seconds &* 1_000_000_000 &+ attoseconds / 1_000_000_000)
    }

    /// Records how many callers shared one refresh.
    func recordWaiters(_ count: Int) {
        waiters.record(count)
    }
}
