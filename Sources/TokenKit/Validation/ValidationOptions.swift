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
    /// Clock skew tolerated for `exp`, `nbf`, `iat` and ``maxAge`` (default zero; sub-second
    /// spans count). Never negative: a negative span, set here or in `init`, becomes zero.
    public var leeway: Duration {
        get { leewaySpan.duration }
        set { leewaySpan = SecondsSpan(newValue.clampedToZero) }
    }
    /// ``leeway`` with its seconds, converted once when it is set: the claim rules count in
    /// seconds (NumericDates), and verification must not convert on every token.
    private(set) var leewaySpan: SecondsSpan
    /// Claims that must be present (default `["exp"]`), each found only under its exact
    /// name (by bytes).
    public var requiredClaims: IdentifierSet {
        get { storedRequiredClaims }
        set {
            storedRequiredClaims = newValue
            requiredClaimNames = newValue.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        }
    }
    private var storedRequiredClaims: IdentifierSet
    /// ``requiredClaims`` in byte order: the order they are looked for and reported in.
    private(set) var requiredClaimNames: [String]
    /// Accepted issuers: `iss` must have exactly the bytes of one (no Unicode
    /// normalisation: see ``IdentifierSet``); `nil` to skip the check.
    public var issuers: IdentifierSet?
    /// Accepted audiences: the token's `aud` (string or array) must contain one, byte for
    /// byte; `nil` to skip the check.
    public var audiences: IdentifierSet?
    /// The expected subject (`sub`, byte-for-byte match); `nil` to skip.
    public var subject: String?
    /// The expected header `typ` (compared case-insensitively, an `application/` prefix
    /// ignored, per RFC 7515 §4.1.9); `nil` to skip.
    public var type: String?
    /// Maximum age since `iat` (requires `iat`); `nil` for no limit.
    public var maxAge: Duration? {
        get { maxAgeSpan?.duration }
        set { maxAgeSpan = newValue.map(SecondsSpan.init) }
    }
    /// ``maxAge`` with its seconds, converted once when it is set (see ``leewaySpan``).
    private(set) var maxAgeSpan: SecondsSpan?
    /// Whether an `iat` later than now (plus leeway) is refused (default true).
    public var rejectIssuedInFuture: Bool
    /// Where "now" comes from (read once per verification).
    public var clock: any TokenClock
    /// Size and nesting limits.
    public var limits: ParsingLimits
    /// A last check of your own; throw a ``JWTError`` (e.g. code ``JWTError/Code/customCheckFailed``)
    /// to refuse the token. Runs only after every other check passed.
    public var customCheck: (@Sendable (JWTHeader, JWTClaims) throws(JWTError) -> Void)?

    /// Options with the given checks; every parameter defaults to the behaviour described on
    /// the type (`leeway` is clamped to zero when negative).
    public init(
        algorithms: Set<JWTAlgorithm>? = nil,
        leeway: Duration = .zero,
        requiredClaims: IdentifierSet = ["exp"],
        issuers: IdentifierSet? = nil,
        audiences: IdentifierSet? = nil,
        subject: String? = nil,
        type: String? = nil,
        maxAge: Duration? = nil,
        rejectIssuedInFuture: Bool = true,
        clock: any TokenClock = SystemClock(),
        limits: ParsingLimits = .default,
        customCheck: (@Sendable (JWTHeader, JWTClaims) throws(JWTError) -> Void)? = nil
    ) {
        self.algorithms = algorithms
        self.leewaySpan = SecondsSpan(leeway.clampedToZero)
        self.storedRequiredClaims = requiredClaims
        self.requiredClaimNames = requiredClaims.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        self.issuers = issuers
        self.audiences = audiences
        self.subject = subject
        self.type = type
        self.maxAgeSpan = maxAge.map(SecondsSpan.init)
        self.rejectIssuedInFuture = rejectIssuedInFuture
        self.clock = clock
        self.limits = limits
        self.customCheck = customCheck
    }
}
