import TokenKit

/// What an audit checks tokens against. A value type: build it once, share it between tasks.
///
/// Guarantees: the contract's findings (`alg-none`, `no-exp`, `no-iat`, `expired`,
/// `not-yet-valid`, `iat-in-future`, `malformed`) are always evaluated; the optional
/// policies below add findings but never change a token's ``AuditStatus``. It does not
/// verify signatures by itself (see ``AuditSignatureChecker``).
public struct AuditPolicy: Sendable {
    /// "Now", in seconds since 1970 (fractions allowed). `exp == now` counts as expired.
    public var now: Double
    /// Longest acceptable `exp - iat`, in seconds; `nil` disables `lifetime-exceeds-max`.
    public var maxLifetime: Int64?
    /// Flag tokens expiring within this many seconds (`expires-soon`); `nil` disables it.
    public var warnWithin: Int64?
    /// Claims every token must carry (`missing-claim` otherwise); empty disables it.
    public var requiredClaims: [String]
    /// `alg` values tokens may use, compared exactly (`alg-not-allowed` otherwise); `nil`
    /// allows any.
    public var allowedAlgorithms: Set<String>?
    /// The findings that make a run fail (``AuditSummary/failed``). Defaults to every finding.
    public var failOn: AuditFindings
    /// Size and depth limits for decoding each token.
    public var limits: ParsingLimits
    /// Whether records get a ``AuditRecord/reference`` (costs a SHA-256 per token without
    /// `jti`). Without it, records and the summary's notable tokens have no reference.
    public var computeReferences: Bool

    /// A policy with only the contract's checks, failing on any finding.
    public init(
        now: Double,
        maxLifetime: Int64? = nil,
        warnWithin: Int64? = nil,
        requiredClaims: [String] = [],
        allowedAlgorithms: Set<String>? = nil,
        failOn: AuditFindings = AuditFindings(AuditFinding.all),
        limits: ParsingLimits = .default,
        computeReferences: Bool = true
    ) {
        self.now = now
        self.maxLifetime = maxLifetime
        self.warnWithin = warnWithin
        self.requiredClaims = requiredClaims
        self.allowedAlgorithms = allowedAlgorithms
        self.failOn = failOn
        self.limits = limits
        self.computeReferences = computeReferences
    }
}
