/// The one-word verdict on a token, as `tokenkit audit --json` reports it in `status`.
///
/// When several apply, the first in this precedence wins: ``malformed`` > ``expired`` >
/// ``notYetValid`` > ``noExpiry`` > ``ok``. Other findings (e.g. `alg-none`) never change the
/// status; they are listed in ``AuditRecord/findings``. The raw values are part of the CLI
/// contract and never change.
public enum AuditStatus: String, Sendable, Hashable, CaseIterable, Comparable {
    /// Decodes, has an `exp` in the future and an `nbf` (if any) in the past.
    case ok
    /// `exp <= now`.
    case expired
    /// `nbf > now` (and not expired).
    case notYetValid = "not-yet-valid"
    /// No `exp` claim (and neither expired nor not yet valid).
    case noExpiry = "no-expiry"
    /// Not a well-formed compact JWT (bad base64url, bad JSON, wrong claim types, not UTF-8...).
    case malformed

    /// Higher wins when several statuses apply.
    public var precedence: Int {
        switch self {
        case .ok: 0
        case .noExpiry: 1
        case .notYetValid: 2
        case .expired: 3
        case .malformed: 4
        }
    }

    /// Orders by ``precedence``.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.precedence < rhs.precedence }
}
