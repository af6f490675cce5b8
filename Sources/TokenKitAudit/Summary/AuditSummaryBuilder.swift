/// Accumulates records into an ``AuditSummary`` as they stream past, in memory that does
/// not grow with the number of tokens (see ``LifetimeDistribution`` for the percentiles).
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
