internal import TokenKitCrypto

/// Why TokenKit refused a token or a key. One type for every failure of the token module.
///
/// `reason` is one line for people ("token expired at 2026-11-20T10:00:00Z (now …)"); it
/// names claims and header values but never contains key material, secrets or the token.
/// Compare ``code`` to decide programmatically: a struct with a code rather than an enum,
/// so new reasons can be added without breaking clients. Equality compares codes only.
public struct JWTError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// A stable, kebab-case name ("expired", "bad-signature", ...).
        public let rawValue: String
        init(_ rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The token is not a well-formed compact JWS/JWT (``JWTError/reason`` names the part).
        public static let malformed = Code("malformed")
        /// The token exceeds ``ParsingLimits/maxTokenBytes``.
        public static let tooLarge = Code("too-large")
        /// `alg` is `none` (unsecured JWS): never accepted.
        public static let unsecured = Code("unsecured")
        /// `alg` is not one TokenKit implements.
        public static let unsupportedAlgorithm = Code("unsupported-algorithm")
        /// `alg` is not in the allowed set, or the key may not be used with it.
        public static let algorithmNotAllowed = Code("algorithm-not-allowed")
        /// The header has a `crit` parameter TokenKit does not understand.
        public static let unsupportedCritical = Code("unsupported-critical")
        /// No configured key matches the token's `kid` (or fits its `alg`).
        public static let noMatchingKey = Code("no-matching-key")
        /// The signature does not verify.
        public static let badSignature = Code("bad-signature")
        /// `exp` has passed.
        public static let expired = Code("expired")
        /// `nbf` is in the future.
        public static let notYetValid = Code("not-yet-valid")
        /// `iat` is in the future.
        public static let issuedInFuture = Code("issued-in-future")
        /// The token is older than the allowed maximum age.
        public static let tooOld = Code("too-old")
        /// `iss` is not an accepted issuer.
        public static let issuerMismatch = Code("issuer-mismatch")
        /// `aud` names none of the accepted audiences.
        public static let audienceMismatch = Code("audience-mismatch")
        /// `sub` is not the expected subject.
        public static let subjectMismatch = Code("subject-mismatch")
        /// The header's `typ` is not the expected type.
        public static let typeMismatch = Code("type-mismatch")
        /// A required claim is absent.
        public static let missingClaim = Code("missing-claim")
        /// A claim has the wrong JSON type or an impossible value.
        public static let invalidClaim = Code("invalid-claim")
        /// A custom check refused the token.
        public static let customCheckFailed = Code("custom-check-failed")
        /// A key could not be read, generated or used.
        public static let invalidKey = Code("invalid-key")
        /// Claims could not be encoded or decoded as the requested type.
        public static let claimsCoding = Code("claims-coding")
        /// A key source has no keys and could not load them (e.g. the JWKS endpoint is
        /// down and no earlier key set is within its maximum staleness).
        public static let keysUnavailable = Code("keys-unavailable")
        /// A JWE did not decrypt: a wrong key, a failed key unwrap, a bad tag or bad padding —
        /// deliberately one code and one reason for all of them (no decryption oracle).
        public static let decryptionFailed = Code("decryption-failed")
        /// A JWE header asks for compression (`zip`), which TokenKit refuses (decompression bombs).
        public static let compressionRefused = Code("compression-refused")
        /// A JWE's ephemeral public key (`epk`) is not a valid point, or not on the recipient
        /// key's curve (the invalid-curve attack).
        public static let invalidEphemeralKey = Code("invalid-ephemeral-key")
        /// A JWS's `x5c` certificate chain is missing, malformed, or does not verify to a
        /// trusted root under the policy (the reason starts with "certificate chain:").
        public static let certificateChain = Code("certificate-chain")
    }

    /// The kind of failure.
    public let code: Code
    /// One line for people, with no secrets.
    public let reason: String
    /// The error TokenKit's own dependency reported, when the failure came from one (for
    /// example the OpenSSL wrapper's error for a refused key); `nil` otherwise. Kept whole
    /// rather than flattened into ``reason``; it never contains key material or secrets.
    public let underlyingError: (any Error & Sendable)?
    /// The underlying library's own reasons, oldest first (for keys: the entries OpenSSL put
    /// on its error queue, e.g. `"bad e value"`); empty when there are none. Never secret.
    public let underlyingReasons: [String]
    /// For ``Code/keysUnavailable``: how long until the key source will try to load keys
    /// again (a remote key set's remaining cooldown), for a service's `Retry-After`; `nil`
    /// when the source gives no hint, and for every other code.
    public let retryAfter: Duration?

    /// Creates an error; `reason` must not contain secrets.
    public init(code: Code, reason: String) {
        self.init(code: code, reason: reason, underlyingError: nil, underlyingReasons: [])
    }

    /// Creates an error with a retry hint (for ``Code/keysUnavailable``; see ``retryAfter``).
    public init(code: Code, reason: String, retryAfter: Duration?) {
        self.code = code
        self.reason = reason
        self.underlyingError = nil
        self.underlyingReasons = []
        self.retryAfter = retryAfter
    }

    /// Creates an error that keeps the error it was caused by; neither may contain secrets.
    public init(code: Code, reason: String, underlyingError: (any Error & Sendable)?, underlyingReasons: [String] = []) {
        self.code = code
        self.reason = reason
        self.underlyingError = underlyingError
        self.underlyingReasons = underlyingReasons
        self.retryAfter = nil
    }

    public var description: String { reason }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    static func malformed(_ reason: String) -> Self { .init(code: .malformed, reason: "malformed token: \(reason)") }
    static func invalidKey(_ reason: String) -> Self { .init(code: .invalidKey, reason: reason) }
    /// A key error caused by the OpenSSL wrapper: "`context`: `cause.message`", with the
    /// cause and OpenSSL's reasons kept.
    static func invalidKey(_ context: String, cause: CryptoError) -> Self {
        .init(code: .invalidKey, reason: "\(context): \(cause.message)", underlyingError: cause, underlyingReasons: cause.openSSLReasons)
    }
    static func invalidClaim(_ name: String, _ why: String) -> Self {
        .init(code: .invalidClaim, reason: "invalid \"\(name)\" claim: \(why)")
    }
}
