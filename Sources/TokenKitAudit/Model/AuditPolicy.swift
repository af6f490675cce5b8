import Foundation
import TokenKit

/// What an audit checks tokens against. A value type: build it once, share it between tasks.
///
/// Guarantees: the contract's findings (`alg-none`, `no-exp`, `no-iat`, `expired`,
/// `not-yet-valid`, `iat-in-future`, `malformed`) are always evaluated; the optional
/// policies below add findings but never change a token's ``AuditStatus``. It does not
/// verify signatures by itself (see ``AuditSignatureChecker``).
public struct AuditPolicy: Sendable {
    /// "Now" (fractions of a second count). `exp == now` counts as expired.
    public var now: Date {
        get { storedNow }
        set {
            storedNow = newValue
            nowSeconds = newValue.timeIntervalSince1970
        }
    }
    private var storedNow: Date
    /// ``now`` in seconds since 1970, converted once when it is set: tokens' NumericDates
    /// are compared with it per token.
    private(set) var nowSeconds: Double
    /// Longest acceptable `exp - iat`; `nil` disables `lifetime-exceeds-max`.
    public var maxLifetime: Duration? {
        get { maxLifetimeSpan?.duration }
        set { maxLifetimeSpan = newValue.map(SecondsSpan.init) }
    }
    /// ``maxLifetime`` with its seconds, converted once when it is set.
    private(set) var maxLifetimeSpan: SecondsSpan?
    /// Flag tokens expiring within this span (`expires-soon`); `nil` disables it.
    public var warnWithin: Duration? {
        get { warnWithinSpan?.duration }
        set { warnWithinSpan = newValue.map(SecondsSpan.init) }
    }
    /// ``warnWithin`` with its seconds, converted once when it is set.
    private(set) var warnWithinSpan: SecondsSpan?
    /// Claims every token must carry (`missing-claim` otherwise); empty disables it.
    public var requiredClaims: [String]
    /// `alg` values tokens may use, compared byte for byte (`alg-not-allowed` otherwise);
    /// `nil` allows any.
    public var allowedAlgorithms: IdentifierSet?
    /// The findings that make a run fail (``AuditSummary/failed``). Defaults to every finding.
    public var failOn: AuditFindings
    /// Size and depth limits for decoding each token.
    public var limits: ParsingLimits
    /// Whether records get a ``AuditRecord/reference`` (costs a SHA-256 per token without
    /// `jti`). Without it, records and the summary's notable tokens have no reference.
    public var computeReferences: Bool

    /// A policy with only the contract's checks, failing on any finding.
    public init(
        now: Date,
        maxLifetime: Duration? = nil,
        warnWithin: Duration? = nil,
        requiredClaims: [String] = [],
        allowedAlgorithms: IdentifierSet? = nil,
        failOn: AuditFindings = AuditFindings(AuditFinding.all),
        limits: ParsingLimits = .default,
        computeReferences: Bool = true
    ) {
        self.storedNow = now
        self.nowSeconds = now.timeIntervalSince1970
        self.maxLifetimeSpan = maxLifetime.map(SecondsSpan.init)
        self.warnWithinSpan = warnWithin.map(SecondsSpan.init)
        self.requiredClaims = requiredClaims
        self.allowedAlgorithms = allowedAlgorithms
        self.failOn = failOn
        self.limits = limits
        self.computeReferences = computeReferences
    }
}
