import TokenKit

/// The audience claim as the token wrote it: one string or an array of strings.
public enum AuditAudience: Sendable, Hashable {
    /// `"aud": "x"`.
    case single(String)
    /// `"aud": ["x", "y"]`.
    case list([String])

    /// The audiences as a list.
    public var values: [String] {
        switch self {
        case .single(let value): [value]
        case .list(let values): values
        }
    }
}

/// What the audit found about one token (one input line).
///
/// Guarantees: never holds the token itself, only claims, header fields and a
/// ``reference``. For a ``AuditStatus/malformed`` token every claim and header field is
/// `nil` and ``findings`` is exactly `[malformed]`. Claims are as written, unverified
/// (unless signatures were checked, see ``AuditFinding/badSignature``).
public struct AuditRecord: Sendable, Hashable {
    /// Where the token came from: the input's name as given (`-` for stdin).
    public var source: String
    /// 1-based line number within ``source`` (blank and comment lines count).
    public var line: Int
    /// The verdict.
    public var status: AuditStatus
    /// Everything noticed, in ``AuditFinding`` order.
    public var findings: AuditFindings
    /// Header `alg`.
    public var algorithm: String?
    /// Header `kid`.
    public var keyID: String?
    /// `iss`.
    public var issuer: String?
    /// `sub`.
    public var subject: String?
    /// `aud`, as written.
    public var audience: AuditAudience?
    /// `iat`, with its literal as written.
    public var issuedAt: JSONNumber?
    /// `nbf`, with its literal as written.
    public var notBefore: JSONNumber?
    /// `exp`, with its literal as written.
    public var expiration: JSONNumber?
    /// `exp - iat` in seconds, when both are present.
    public var lifetime: Double?
    /// `exp - now` in seconds (negative once expired), when `exp` is present.
    public var remaining: Double?
    /// A non-secret name for the token: its `jti` when it has one, else `sha256:` and the
    /// first 8 bytes of the SHA-256 of the token in hex. `nil` when not computed.
    public var reference: String?
    /// Why the token is malformed or its signature failed, for people; never contains the
    /// token or key material.
    public var problem: String?
    /// Required claims the token lacks (see ``AuditPolicy/requiredClaims``).
    public var missingClaims: [String]

    /// A record with no data yet (status `ok`, no findings).
    public init(source: String, line: Int) {
        self.source = source
        self.line = line
        status = .ok
        findings = AuditFindings()
        missingClaims = []
    }
}
