import Foundation
internal import TokenKitPrimitives

/// Where a credential lives: a service (your app or API, e.g. `"com.example.mail"`) and an
/// account within it (e.g. a user name or `"parent"` / `"child"`).
///
/// Two keys are equal only when both names have the same bytes (no Unicode normalisation:
/// `"K"` and U+212A KELVIN SIGN name different accounts), in every backend alike — the
/// Secret Service and PostgreSQL compare the bytes, and so do the in-memory and file stores.
public struct CredentialKey: Hashable, Sendable, CustomStringConvertible {
    /// The service the credential belongs to. Never empty.
    public let service: String
    /// The account within the service. Never empty.
    public let account: String

    /// Creates a key; throws ``TokenStoreError/invalidKey`` for empty or control-character names.
    public init(service: String, account: String) throws(TokenStoreError) {
        for (name, value) in [("service", service), ("account", account)] {
            guard !value.isEmpty, value.utf8.count <= 1024,
                  !value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
            else { throw .invalidKey("\(name) must be 1 to 1024 bytes without control characters") }
        }
        self.service = service
        self.account = account
    }

    public var description: String { "\(service)/\(account)" }

    /// Byte-for-byte equality of both names (see the type's note).
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.service.isByteIdentical(to: rhs.service) && lhs.account.isByteIdentical(to: rhs.account)
    }

    /// Hashes the names' bytes, consistent with ``==(_:_:)``.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ExactKey(service))
        hasher.combine(ExactKey(account))
    }
}

/// A store of credentials keyed by service and account.
///
/// Every backend (in-memory, encrypted file, Secret Service) gives the same guarantees:
/// - `save` replaces whatever was stored under the key, atomically: a reader sees the old
///   credential or the new one, never a mix.
/// - `accounts(service:)` lists metadata only; no operation but `load` returns secret bytes.
/// - `replace(_:expected:with:)` is a compare-and-swap: it writes only if the stored secret
///   still equals `expected` (byte for byte), so a refresh never overwrites a newer login.
/// - Errors are ``TokenStoreError`` values and never contain secret bytes.
public protocol TokenStore: Sendable {
    /// A short name for messages and logs, e.g. `"secret-service"` or `"file"`.
    var backendName: String { get }

    /// Stores `credential` under `key`, replacing any previous one.
    func save(_ credential: Credential, for key: CredentialKey) async throws(TokenStoreError)

    /// Returns the credential stored under `key`, or `nil` when there is none.
    func load(_ key: CredentialKey) async throws(TokenStoreError) -> Credential?

    /// Deletes the credential under `key`; returns `false` when there was none.
    @discardableResult
    func delete(_ key: CredentialKey) async throws(TokenStoreError) -> Bool

    /// Lists the accounts stored for `service`, sorted by account name, without secrets.
    func accounts(service: String) async throws(TokenStoreError) -> [CredentialInfo]

    /// Compare-and-swap: if the secret stored under `key` equals `expected`'s secret (or
    /// nothing is stored and `expected` is `nil`), stores `new` (or deletes when `new` is
    /// `nil`) and returns `true`; otherwise changes nothing and returns `false`.
    func replace(_ key: CredentialKey, expected: Credential?, with new: Credential?) async throws(TokenStoreError) -> Bool
}

/// A store that can check, before a credential is obtained, that writing it would succeed
/// now — so a sign-in is not started against a store that will refuse its result.
///
/// Guarantees: ``checkWritable()`` writes nothing a reader could see and reports the failure
/// a write would report (wrong passphrase, locked keyring, no service…). Does not: promise that
/// a later write succeeds (the store can fail in between; see ``RescuingTokenStore``).
public protocol TokenStorePreflight: TokenStore {
    /// Throws the ``TokenStoreError`` a write would fail with now; returns when it would succeed.
    func checkWritable() async throws(TokenStoreError)
}
