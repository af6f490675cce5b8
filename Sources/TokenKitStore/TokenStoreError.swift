/// Why a ``TokenStore`` operation failed. Messages name the cause (and, where useful, what to
/// do about it) and never contain secret bytes.
///
/// A struct with a code rather than an enum, so that new causes can be added without
/// breaking `switch` statements in client code. Equality compares codes only.
public struct TokenStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure; compare with the static members.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        init(_ rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The service or account name is unusable.
        public static let invalidKey = Code("invalid-key")
        /// The token-set JSON is not valid.
        public static let invalidTokenSet = Code("invalid-token-set")
        /// A plain secret was read as a token set, or the reverse.
        public static let wrongKind = Code("wrong-kind")
        /// The passphrase (or raw key) does not open the encrypted file.
        public static let wrongPassphrase = Code("wrong-passphrase")
        /// The encrypted file was modified, truncated or is not a TokenKit store.
        public static let corrupted = Code("corrupted")
        /// A file or directory has looser permissions than the store requires.
        public static let insecurePermissions = Code("insecure-permissions")
        /// No passphrase or key was supplied where one is required.
        public static let missingPassphrase = Code("missing-passphrase")
        /// No Secret Service answers on the session bus.
        public static let noSecretService = Code("no-secret-service")
        /// The keyring collection is locked.
        public static let locked = Code("locked")
        /// The user dismissed an unlock prompt.
        public static let dismissed = Code("dismissed")
        /// The backend did not answer before the deadline.
        public static let timeout = Code("timeout")
        /// Reading or writing storage failed.
        public static let io = Code("io")
        /// Any other backend failure.
        public static let backend = Code("backend")
        /// A ``RefreshLock`` could not be taken: the wait timed out, or the lock itself is
        /// unusable (an unsafe lock directory, an unreachable lock server).
        public static let lock = Code("lock")
        /// The caller's task was cancelled while it waited (for a ``RefreshLock``).
        public static let cancelled = Code("cancelled")
    }

    /// The kind of failure.
    public let code: Code
    /// A one-line explanation for people, without secrets.
    public let message: String

    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    public static func invalidKey(_ why: String) -> Self { .init(code: .invalidKey, message: "invalid credential key: \(why)") }
    public static func invalidTokenSet(_ why: String) -> Self { .init(code: .invalidTokenSet, message: "invalid token set: \(why)") }
    public static func wrongKind(_ why: String) -> Self { .init(code: .wrongKind, message: why) }
}
