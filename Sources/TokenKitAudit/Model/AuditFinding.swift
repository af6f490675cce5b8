internal import TokenKitPrimitives

/// One thing an audit noticed about a token, named by a stable kebab-case string.
///
/// The contract's findings (``algNone`` ... ``malformed``) are always evaluated; the others
/// (``expiresSoon``, ``missingClaim``, ``algorithmNotAllowed``, ``badSignature``) only when the
/// corresponding policy is set. A struct rather than an enum so new findings can be added
/// without breaking clients; compare with the static members.
public struct AuditFinding: RawRepresentable, Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The stable name, e.g. `"alg-none"`.
    public let rawValue: String
    /// Position in ``all``: findings are always listed in this order.
    public let order: Int

    /// The finding with exactly this name (byte for byte), or `nil` when TokenKit knows no
    /// such finding.
    public init?(rawValue: String) {
        guard let known = Self.all.first(where: { $0.rawValue.isByteIdentical(to: rawValue) }) else { return nil }
        self = known
    }

    private init(_ rawValue: String, _ order: Int) {
        self.rawValue = rawValue
        self.order = order
    }

    /// `alg` is `none` (any case): an unsecured token.
    public static let algNone = AuditFinding("alg-none", 0)
    /// No `exp` claim.
    public static let noExp = AuditFinding("no-exp", 1)
    /// No `iat` claim.
    public static let noIat = AuditFinding("no-iat", 2)
    /// `exp - iat` is greater than the policy's maximum lifetime.
    public static let lifetimeExceedsMax = AuditFinding("lifetime-exceeds-max", 3)
    /// `exp <= now`.
    public static let expired = AuditFinding("expired", 4)
    /// `nbf > now`.
    public static let notYetValid = AuditFinding("not-yet-valid", 5)
    /// `iat > now`.
    public static let iatInFuture = AuditFinding("iat-in-future", 6)
    /// The token did not decode.
    public static let malformed = AuditFinding("malformed", 7)
    /// Not expired, but `exp - now <= warnWithin`.
    public static let expiresSoon = AuditFinding("expires-soon", 8)
    /// A claim the policy requires is absent.
    public static let missingClaim = AuditFinding("missing-claim", 9)
    /// `alg` is not in the policy's allowed list.
    public static let algorithmNotAllowed = AuditFinding("alg-not-allowed", 10)
    /// Signatures are checked and this one did not verify (wrong key, no key for `kid`,
    /// unsupported or `none` algorithm).
    public static let badSignature = AuditFinding("bad-signature", 11)

    /// Every finding, in reporting order.
    public static let all: [AuditFinding] = [
        algNone, noExp, noIat, lifetimeExceedsMax, expired, notYetValid, iatInFuture, malformed,
        expiresSoon, missingClaim, algorithmNotAllowed, badSignature,
    ]

    /// Orders by ``order``.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.order < rhs.order }
    /// Equal when the names are equal.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.rawValue == rhs.rawValue }
    /// Hashes the name.
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
    /// The name.
    public var description: String { rawValue }
}

/// A set of findings as a bit mask (at most 64 kinds), cheap to copy per record.
public struct AuditFindings: Sendable, Hashable, Sequence {
    /// One bit per ``AuditFinding/order``.
    public private(set) var bits: UInt64

    /// The empty set.
    public init() { bits = 0 }

    /// The set of `findings`.
    public init(_ findings: some Sequence<AuditFinding>) {
        bits = 0
        for finding in findings { insert(finding) }
    }

    /// Adds `finding`.
    public mutating func insert(_ finding: AuditFinding) { bits |= 1 << UInt64(finding.order) }
    /// Whether `finding` is in the set.
    public func contains(_ finding: AuditFinding) -> Bool { bits & (1 << UInt64(finding.order)) != 0 }
    /// Whether the set is empty.
    public var isEmpty: Bool { bits == 0 }
    /// Whether the two sets share a finding.
    public func intersects(_ other: AuditFindings) -> Bool { bits & other.bits != 0 }

    /// The findings in reporting order (no allocation).
    public func makeIterator() -> Iterator { Iterator(bits: bits) }

    /// Walks the set bits from the lowest (reporting order).
    public struct Iterator: IteratorProtocol {
        var bits: UInt64
        /// The next finding, or `nil` after the last.
        public mutating func next() -> AuditFinding? {
            while bits != 0 {
                let order = bits.trailingZeroBitCount
                bits &= bits - 1
                if order < AuditFinding.all.count { return AuditFinding.all[order] }
            }
            return nil
        }
    }
}
