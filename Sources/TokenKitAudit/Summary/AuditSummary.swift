/// A token singled out by the summary (the soonest to expire, the longest-lived), by
/// reference and position, never by content.
public struct NotableToken: Sendable, Hashable {
    /// The input it came from.
    public let source: String
    /// Its line in that input.
    public let line: Int
    /// Its non-secret reference (see ``AuditRecord/reference``), when computed.
    public let reference: String?
    /// The value it was singled out for: seconds remaining, or lifetime in seconds.
    public let seconds: Double
    /// Its `exp`, in seconds since 1970.
    public let expiration: Double?
}

/// What a whole audit found: counts, lifetime distribution and notable tokens.
public struct AuditSummary: Sendable {
    /// Tokens audited (skipped blank and comment lines excluded).
    public var total: Int
    /// Tokens per status (every status present, zero when none).
    public var statusCounts: [AuditStatus: Int]
    /// Tokens per finding (only findings that occurred).
    public var findingCounts: [AuditFinding: Int]
    /// Tokens with at least one finding of the policy's ``AuditPolicy/failOn`` set.
    public var failing: Int
    /// Lifetime statistics over tokens with both `iat` and `exp`; `nil` when there are none.
    public var lifetimes: LifetimeStatistics?
    /// The not-yet-expired token expiring first (``NotableToken/seconds`` = seconds left).
    public var soonestExpiry: NotableToken?
    /// The token with the longest lifetime (``NotableToken/seconds`` = lifetime).
    public var longestLived: NotableToken?

    /// Whether the run should fail: some token has a finding the policy fails on.
    public var failed: Bool { failing > 0 }
}

/// Accumulates records into an ``AuditSummary`` as they stream past, in O(1) memory per
/// token apart from the lifetimes (8 bytes each).
public struct AuditSummaryBuilder: Sendable {
    private let failOn: AuditFindings
    private var summary: AuditSummary
    private var distribution = LifetimeDistribution()
    /// Counts by ``AuditStatus/precedence`` and by ``AuditFinding/order`` (dictionaries are
    /// built once, in ``finish()``).
    private var statusTally = [Int](repeating: 0, count: AuditStatus.allCases.count)
    private var findingTally = [Int](repeating: 0, count: AuditFinding.all.count)

    /// A builder counting as failing the tokens with a finding in `failOn`.
    public init(failOn: AuditFindings) {
        self.failOn = failOn
        summary = AuditSummary(total: 0, statusCounts: [:], findingCounts: [:], failing: 0,
                               lifetimes: nil, soonestExpiry: nil, longestLived: nil)
    }

    /// Whether `record` has a finding the policy fails on.
    public func fails(_ record: AuditRecord) -> Bool { record.findings.intersects(failOn) }

    /// Adds one record.
    public mutating func add(_ record: AuditRecord) {
        summary.total += 1
        statusTally[record.status.precedence] += 1
        for finding in record.findings { findingTally[finding.order] += 1 }
        if fails(record) { summary.failing += 1 }
        if let lifetime = record.lifetime {
            distribution.add(lifetime)
            if summary.longestLived.map({ lifetime > $0.seconds }) ?? true {
                summary.longestLived = NotableToken(source: record.source, line: record.line, reference: record.reference,
                                                    seconds: lifetime, expiration: record.expiration?.doubleValue)
            }
        }
        if let remaining = record.remaining, remaining > 0,
           summary.soonestExpiry.map({ remaining < $0.seconds }) ?? true {
            summary.soonestExpiry = NotableToken(source: record.source, line: record.line, reference: record.reference,
                                                 seconds: remaining, expiration: record.expiration?.doubleValue)
        }
    }

    /// The summary so far (computes the lifetime percentiles: O(n log n)).
    public func finish() -> AuditSummary {
        var result = summary
        for status in AuditStatus.allCases { result.statusCounts[status] = statusTally[status.precedence] }
        for finding in AuditFinding.all where findingTally[finding.order] > 0 {
            result.findingCounts[finding] = findingTally[finding.order]
        }
        result.lifetimes = distribution.statistics()
        return result
    }
}
