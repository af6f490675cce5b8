/// Token lifetimes (`exp - iat`, seconds) collected for percentiles in bounded memory,
/// whatever the number of tokens.
///
/// Exact while there are at most ``exactLimit`` distinct values (a count per value, the
/// usual case: fleets issue a handful of lifetimes); beyond that it folds into a fixed-size
/// log-linear histogram (128 sub-buckets per power of two: relative error below 0.4%), and
/// ``LifetimeStatistics/isExact`` turns false. Min and max are always exact. Percentiles use
/// the nearest-rank method (the median of an even count is the lower middle value).
public struct LifetimeDistribution: Sendable {
    /// Distinct values kept exactly before switching to the histogram.
    public static let exactLimit = 65_536

    private var exact: [Double: Int] = [:]
    private var histogram: LogLinearHistogram?
    private var minimum = Double.infinity
    private var maximum = -Double.infinity
    /// The last value added and how many times in a row (runs of equal lifetimes are the
    /// common case and skip the hashing).
    private var lastValue = Double.nan
    private var lastCount = 0
    /// Number of lifetimes added.
    public private(set) var count = 0

    /// An empty distribution.
    public init() {}

    /// Adds one lifetime (non-finite values are ignored).
    public mutating func add(_ lifetime: Double) {
        guard lifetime.isFinite else { return }
        count += 1
        minimum = Swift.min(minimum, lifetime)
        maximum = Swift.max(maximum, lifetime)
        if lifetime == lastValue {
            lastCount += 1
            return
        }
        flushLast()
        lastValue = lifetime
        lastCount = 1
    }

    /// Moves the run of equal values seen last into the exact counts (or the histogram).
    private mutating func flushLast() {
        guard lastCount > 0 else { return }
        defer { lastCount = 0 }
        if histogram != nil {
            histogram?.add(lastValue, times: lastCount)
            return
        }
        exact[lastValue, default: 0] += lastCount
        if exact.count > Self.exactLimit {
            var folded = LogLinearHistogram()
            for (value, times) in exact { folded.add(value, times: times) }
            histogram = folded
            exact = [:]
        }
    }

    /// Min, median, p95 and max, or `nil` when nothing was added.
    public func statistics() -> LifetimeStatistics? {
        guard count > 0 else { return nil }
        var copy = self
        copy.flushLast()
        return copy.computeStatistics()
    }

    private func computeStatistics() -> LifetimeStatistics {
        func rank(_ p: Double) -> Int { Swift.max(1, Int((p * Double(count)).rounded(.up))) }
        if let histogram {
            func clamp(_ value: Double) -> Double { Swift.min(Swift.max(value, minimum), maximum) }
            return LifetimeStatistics(count: count, min: minimum, median: clamp(histogram.value(atRank: rank(0.5))),
                                      p95: clamp(histogram.value(atRank: rank(0.95))), max: maximum, isExact: false)
        }
        let sorted = exact.sorted { $0.key < $1.key }
        func value(atRank target: Int) -> Double {
            var seen = 0
            for (value, times) in sorted {
                seen += times
                if seen >= target { return value }
            }
            return maximum
        }
        return LifetimeStatistics(count: count, min: minimum, median: value(atRank: rank(0.5)),
                                  p95: value(atRank: rank(0.95)), max: maximum, isExact: true)
    }
}

/// Counts of values in log-linear buckets: 128 per power of two of the magnitude, for each
/// sign, plus one for magnitudes below 1. Fixed size (about 130 KB).
struct LogLinearHistogram: Sendable {
    private static let subBuckets = 128
    private static let exponents = 64
    private var positive = [Int](repeating: 0, count: exponents * subBuckets)
    private var negative = [Int](repeating: 0, count: exponents * subBuckets)
    private var small = 0

    mutating func add(_ value: Double, times: Int) {
        let magnitude = abs(value)
        guard magnitude >= 1 else { small += times; return }
        let index = Self.index(magnitude)
        if value < 0 { negative[index] += times } else { positive[index] += times }
    }

    /// The representative value (bucket midpoint) of the `target`-th smallest value (1-based).
    func value(atRank target: Int) -> Double {
        var seen = 0
        for index in negative.indices.reversed() where negative[index] > 0 {
            seen += negative[index]
            if seen >= target { return -Self.midpoint(index) }
        }
        seen += small
        if seen >= target { return 0 }
        for index in positive.indices where positive[index] > 0 {
            seen += positive[index]
            if seen >= target { return Self.midpoint(index) }
        }
        return 0
    }

    private static func index(_ magnitude: Double) -> Int {
        let exponent = Swift.min(Int(magnitude.exponent), exponents - 1)
        let fraction = magnitude / Double(sign: .plus, exponent: exponent, significand: 1) - 1
        return exponent * subBuckets + Swift.min(subBuckets - 1, Int(fraction * Double(subBuckets)))
    }

    private static func midpoint(_ index: Int) -> Double {
        let exponent = index / subBuckets, sub = index % subBuckets
        return Double(sign: .plus, exponent: exponent, significand: 1) * (1 + (Double(sub) + 0.5) / Double(subBuckets))
    }
}

/// Summary statistics of token lifetimes, in seconds.
public struct LifetimeStatistics: Sendable, Hashable {
    /// How many tokens had both `iat` and `exp`.
    public let count: Int
    /// Shortest lifetime (exact).
    public let min: Double
    /// Median (nearest rank).
    public let median: Double
    /// 95th percentile (nearest rank).
    public let p95: Double
    /// Longest lifetime (exact).
    public let max: Double
    /// Whether median and p95 are exact (else within 0.4%, see ``LifetimeDistribution``).
    public let isExact: Bool
}
