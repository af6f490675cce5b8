/// Why getting, refreshing or using an access token failed.
///
/// A struct with a ``Code`` rather than an enum, so new causes can be added without breaking
/// `switch` statements in client code. Equality compares codes only.
///
/// Guarantees: ``message`` names the reason in one line and never contains an access token,
/// refresh token, client secret or response body. It does not guarantee that messages stay
/// word-for-word stable between releases; match on ``code``.
public struct AuthError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure; compare with the static members.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The stable name of the code, e.g. `"sign-in-required"`.
        public let rawValue: String
        package init(_ rawValue: String) { self.rawValue = rawValue }
        /// The same as ``rawValue``.
        public var description: String { rawValue }

        /// No usable credential: none is stored, the refresh token was rejected
        /// (`invalid_grant`), or the access token was rejected and cannot be refreshed.
        /// The user has to sign in again.
        public static let signInRequired = Code("sign-in-required")
        /// The token endpoint answered with an OAuth 2.0 error other than `invalid_grant`
        /// (for example `invalid_client`); ``AuthError/oauthError`` holds its `error` value.
        public static let refreshRejected = Code("refresh-rejected")
        /// The token endpoint's answer is not a valid token response (not JSON, too large,
        /// missing `access_token`, wrong `token_type`, unexpected status...).
        public static let invalidResponse = Code("invalid-response")
        /// The request did not complete: connection, TLS, timeout or transport failure.
        public static let network = Code("network")
        /// The credential store failed; the message carries the store's reason.
        public static let store = Code("store")
        /// The store changed in a way that makes the refreshed token set unsafe to save
        /// (another sign-in replaced the credential while this refresh ran).
        public static let conflict = Code("conflict")
        /// The cross-process refresh lock could not be taken (timeout, unsafe directory, I/O).
        public static let lock = Code("lock")
        /// A configuration value is unusable (e.g. a plain-http token endpoint off loopback).
        public static let invalidConfiguration = Code("invalid-configuration")
        /// Refreshing failed several times in a row; no new attempt is made before the
        /// backoff delay has passed (the message names the last failure and the delay).
        public static let retryLater = Code("retry-later")
        /// The caller's task was cancelled while waiting; the shared refresh goes on.
        public static let cancelled = Code("cancelled")
        /// The answer is not the answer to this request: a discovery document of another
        /// issuer, or an authorization response whose `state` fits but whose `iss` names
        /// another issuer (mix-up, RFC 9207), lacks the `iss` its issuer promised, or repeats a
        /// parameter. (A sign-in callback with a wrong or missing `state` is not an error: it
        /// is ignored and the sign-in keeps waiting.)
        public static let responseMismatch = Code("response-mismatch")
    }

    /// The kind of failure.
    public let code: Code
    /// A one-line explanation for people, without secrets.
    public let message: String
    /// For ``Code/refreshRejected`` and ``Code/signInRequired`` caused by the token endpoint:
    /// the OAuth 2.0 `error` value (RFC 6749 §5.2), e.g. `"invalid_grant"`.
    public let oauthError: String?

    /// Creates an error. `message` must not contain secrets.
    public init(code: Code, message: String, oauthError: String? = nil) {
        self.code = code
        self.message = message
        self.oauthError = oauthError
    }

    /// The message.
    public var description: String { message }

    /// Compares ``code`` only.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    /// Hashes ``code`` only.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// A ``Code/signInRequired`` error naming `why`.
    public static func signInRequired(_ why: String, oauthError: String? = nil) -> Self {
        .init(code: .signInRequired, message: "sign-in required: \(why)", oauthError: oauthError)
    }
    /// An ``Code/invalidResponse`` error naming `why`.
    public static func invalidResponse(_ why: String) -> Self {
        .init(code: .invalidResponse, message: "invalid token endpoint response: \(why)")
    }
    /// A ``Code/network`` error naming `why`.
    public static func network(_ why: String) -> Self { .init(code: .network, message: why) }
    /// A ``Code/lock`` error naming `why`.
    public static func lock(_ why: String) -> Self { .init(code: .lock, message: "refresh lock: \(why)") }
    /// An ``Code/invalidConfiguration`` error naming `why`.
    public static func invalidConfiguration(_ why: String) -> Self { .init(code: .invalidConfiguration, message: why) }
    /// A ``Code/cancelled`` error.
    public static var cancelled: Self { .init(code: .cancelled, message: "cancelled while waiting for an access token") }
}
