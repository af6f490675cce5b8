/// What a verified token must satisfy beyond its signature.
///
/// Defaults: algorithms those the key allows; `exp` required; no leeway; `iat` may not be
/// in the future; `iss`, `aud`, `sub` and `typ` not checked; the system clock.
/// Time semantics follow RFC 7519: a token is expired when `now >= exp + leeway` and not
/// yet valid when `now + leeway < nbf`. A present `exp`, `nbf` or `iat` that is not a
/// number is always rejected, whether or not it is required.
public struct ValidationOptions: Sendable {
    /// Algorithms accepted; `nil` means every algorithm the key may be used with. The
    /// effective set is always intersected with the key's own algorithms.
    public var algorithms: Set<JWTAlgorithm>?
    /// Seconds of clock skew tolerated for `exp`, `nbf`, `iat` and ``maxAge`` (default 0).
    /// Never negative: a negative, NaN or infinite value, set here or in `init`, becomes 0.
    public var leeway: Double {
        get { storedLeeway }
        set { storedLeeway = Self.clampedLeeway(newValue) }
    }
    private var storedLeeway: Double

    private static func clampedLeeway(_ value: Double) -> Double { value.isFinite && value > 0 ? value : 0 }
    /// Claims that must be present (default `["exp"]`).
    public var requiredClaims: Set<String> {
        get { storedRequiredClaims }
        set {
            storedRequiredClaims = newValue
            requiredClaimNames = newValue.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        }
    }
    private var storedRequiredClaims: Set<String>
    /// ``requiredClaims`` in byte order: the order they are looked for and reported in.
    private(set) var requiredClaimNames: [String]
    /// Accepted issuers (`iss`, exact match); `nil` to skip the check.
    public var issuers: Set<String>?
    /// Accepted audiences: the token's `aud` (string or array) must contain one; `nil` to
    /// skip the check.
    public var audiences: Set<String>?
    /// The expected subject (`sub`, exact match); `nil` to skip.
    public var subject: String?
    /// The expected header `typ` (compared case-insensitively, an `application/` prefix
    /// ignored, per RFC 7515 §4.1.9); `nil` to skip.
    public var type: String?
    /// Maximum age in seconds since `iat` (requires `iat`); `nil` for no limit.
    public var maxAge: Double?
    /// Whether an `iat` later than now (plus leeway) is refused (default true).
    public var rejectIssuedInFuture: Bool
    /// Where "now" comes from.
    public var clock: any TokenClock
    /// Size and nesting limits.
    public var limits: ParsingLimits
    /// A last check of your own; throw a ``JWTError`` (e.g. code ``JWTError/Code/customCheckFailed``)
    /// to refuse the token. Runs only after every other check passed.
    public var customCheck: (@Sendable (JWTHeader, JWTClaims) throws(JWTError) -> Void)?

    public init(
        algorithms: Set<JWTAlgorithm>? = nil,
        leeway: Double = 0,
        requiredClaims: Set<String> = ["exp"],
        issuers: Set<String>? = nil,
        audiences: Set<String>? = nil,
        subject: String? = nil,
        type: String? = nil,
        maxAge: Double? = nil,
        rejectIssuedInFuture: Bool = true,
        clock: any TokenClock = SystemClock(),
        limits: ParsingLimits = .default,
        customCheck: (@Sendable (JWTHeader, JWTClaims) throws(JWTError) -> Void)? = nil
    ) {
        self.algorithms = algorithms
        self.storedLeeway = Self.clampedLeeway(leeway)
        self.storedRequiredClaims = requiredClaims
        self.requiredClaimNames = requiredClaims.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        self.issuers = issuers
        self.audiences = audiences
        self.subject = subject
        self.type = type
        self.maxAge = maxAge
        self.rejectIssuedInFuture = rejectIssuedInFuture
        self.clock = clock
        self.limits = limits
        self.customCheck = customCheck
    }
}
