import CoreMetrics
import Foundation

/// The series of one ``RemoteJWKS``, created once (at its init, from the metrics factory in
/// force then: the application's bootstrapped backend, or a no-op one) and reused:
///
/// - `tokenkit_jwks_fetches_total{outcome}` — `ok` (a key set was read), `not_modified`
///   (`304`, the held keys revalidated), `error` (anything else: transport failure,
///   timeout, cap, bad status, unusable document);
/// - `tokenkit_jwks_keys` — usable keys held (0 before the first fetch and past max staleness);
/// - `tokenkit_jwks_age_seconds` — seconds since the held key set was last fetched or
///   revalidated (not set before the first successful fetch).
///
/// Labels carry only the fixed outcome names: never a URL, host or key ID.
final class JWKSMetrics: Sendable {
    static let fetchesLabel = "tokenkit_jwks_fetches_total"
    static let keysLabel = "tokenkit_jwks_keys"
    static let ageLabel = "tokenkit_jwks_age_seconds"

    /// How a fetch ended (the `outcome` label).
    enum Outcome: Int, CaseIterable {
        case ok, notModified, error

        var label: String {
            switch self {
            case .ok: "ok"
            case .notModified: "not_modified"
            case .error: "error"
            }
        }
    }

    private let fetches: [Counter]
    private let keys: Gauge
    private let age: Gauge

    init(factory: any MetricsFactory = MetricsSystem.factory) {
        fetches = Outcome.allCases.map { Counter(label: Self.fetchesLabel, dimensions: [("outcome", $0.label)], factory: factory) }
        keys = Gauge(label: Self.keysLabel, dimensions: [], factory: factory)
        age = Gauge(label: Self.ageLabel, dimensions: [], factory: factory)
    }

    /// Counts one finished fetch.
    func countFetch(_ outcome: Outcome) {
        fetches[outcome.rawValue].increment()
    }

    /// Sets the gauges: `usableKeys` held, and the age of the key set last fetched at
    /// `lastFetch` (left as it was when there has been none).
    func observe(usableKeys: Int, lastFetch: Date?, now: Date) {
        keys.record(usableKeys)
        if let lastFetch { age.record(max(0, now.timeIntervalSince(lastFetch))) }
    }
}
