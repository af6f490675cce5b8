/// Token lifetimes (`exp - iat`, seconds) collected for percentiles: 8 bytes per token
/// (8 MB for a million), exact results.
///
/// Percentiles use the nearest-rank method on the sorted values (the median of an even
/// count is the lower middle value). Does not keep which token had which lifetime.
public struct LifetimeDistribution: Sendable {
    private var values: [Double] = []

    /// An empty distribution.
    public init() {}

    /// Adds one lifetime.
    public mutating func add(_ lifetime: Double) { values.append(lifetime) }

    /// Number of lifetimes added.
    public var count: Int { values.count }

    /// Min, median, p95 and max, or `nil` when nothing was added. Sorts a copy: O(n log n).
    public func statistics() -> LifetimeStatistics? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        func rank(_ p: Double) -> Double {
            let index = Int((p * Double(sorted.count)).rounded(.up)) - 1
            return sorted[min(max(index, 0), sorted.count - 1)]
        }
        return LifetimeStatistics(count: sorted.count, min: sorted[0], median: rank(0.5), p95: rank(0.95),
                                  max: sorted[sorted.count - 1])
    }
}

/// Summary statistics of token lifetimes, in seconds.
public struct LifetimeStatistics: Sendable, Hashable {
    /// How many tokens had both `iat` and `exp`.
    public let count: Int
    /// Shortest lifetime.
    public let min: Double
    /// Median (nearest rank).
    public let median: Double
    /// 95th percentile (nearest rank).
    public let p95: Double
    /// Longest lifetime.
    public let max: Double
}
