import Foundation

/// A stored secret: raw bytes, or a ``TokenSet`` kept as its JSON.
///
/// `description` never shows the secret (only its kind and size), so a credential can be
/// logged or interpolated into an error safely.
public struct Credential: Sendable, Equatable, CustomStringConvertible {
    /// What the secret bytes hold.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        /// The raw name stored with the credential (`"secret"` or `"token-set"`).
        public let rawValue: String
        /// Opaque secret bytes (a password, an API key, a refresh token...).
        public static let secret = Kind(rawValue: "secret")
        /// A ``TokenSet`` encoded as JSON.
        public static let tokenSet = Kind(rawValue: "token-set")
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }
    }

    /// What ``secret`` holds.
    public var kind: Kind
    /// The secret bytes, exactly as stored.
    public var secret: [UInt8]
    /// When the credential was first stored (set by the store on save when `nil`).
    public var createdAt: Date?
    /// When the credential was last written (set by the store on save).
    public var updatedAt: Date?

    /// A credential holding opaque secret bytes.
    public init(secret: [UInt8], createdAt: Date? = nil, updatedAt: Date? = nil) {
        self.kind = .secret
        self.secret = secret
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// A credential holding a token set (stored as its canonical JSON).
    public init(tokenSet: TokenSet, createdAt: Date? = nil, updatedAt: Date? = nil) {
        self.kind = .tokenSet
        self.secret = tokenSet.jsonBytes()
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// Creates a credential of any kind from stored parts (used by backends).
    public init(kind: Kind, secret: [UInt8], createdAt: Date?, updatedAt: Date?) {
        self.kind = kind
        self.secret = secret
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// The token set, when ``kind`` is ``Kind/tokenSet``; throws when the bytes do not decode.
    public func tokenSet() throws(TokenStoreError) -> TokenSet {
        guard kind == .tokenSet else { throw .wrongKind("the credential holds a plain secret, not a token set") }
        return try TokenSet(jsonBytes: secret)
    }

    /// Whether the secrets are the same bytes (compared in constant time for equal lengths).
    public func hasSameSecret(as other: Credential) -> Bool {
        guard secret.count == other.secret.count else { return false }
        var diff: UInt8 = 0
        for i in secret.indices { diff |= secret[i] ^ other.secret[i] }
        return diff == 0 && kind == other.kind
    }

    public var description: String { "Credential(\(kind), \(secret.count) bytes)" }
}

/// What ``TokenStore/accounts(service:)`` reports about a stored credential: never the secret.
public struct CredentialInfo: Sendable, Equatable {
    /// The account name.
    public var account: String
    /// What the credential holds.
    public var kind: Credential.Kind
    /// Size of the secret in bytes.
    public var size: Int
    /// When it was first stored, if the backend knows.
    public var createdAt: Date?
    /// When it was last written, if the backend knows.
    public var updatedAt: Date?
    /// For token sets: when the access token expires, if known.
    public var expiresAt: Date?

    public init(account: String, kind: Credential.Kind, size: Int, createdAt: Date?, updatedAt: Date?, expiresAt: Date?) {
        self.account = account
        self.kind = kind
        self.size = size
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.expiresAt = expiresAt
    }

    /// Describes `credential` stored under `account` without its secret.
    public init(account: String, credential: Credential) {
        self.init(
            account: account, kind: credential.kind, size: credential.secret.count,
            createdAt: credential.createdAt, updatedAt: credential.updatedAt,
            expiresAt: (try? credential.tokenSet())?.expiresAt)
    }
}
