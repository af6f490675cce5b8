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
