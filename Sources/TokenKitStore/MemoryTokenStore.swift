import Foundation

/// A ``TokenStore`` that keeps credentials in this process's memory, for tests and
/// short-lived processes.
///
/// Guarantees the same semantics as the persistent backends: atomic save, metadata-only
/// listing, and a compare-and-swap ``replace(_:expected:with:)`` that is atomic with respect
/// to every other call on the same instance (an actor serializes them). Does not: persist
/// anything, share entries between instances or processes, or wipe secret bytes from memory
/// when they are overwritten (Swift arrays cannot promise that).
public actor MemoryTokenStore: TokenStore {
    private var entries: [CredentialKey: Credential] = [:]
    private let clock: any TokenClock

    /// An empty store; `clock` supplies the timestamps written on save (defaults to the
    /// system clock).
    public init(clock: any TokenClock = SystemClock()) {
        self.clock = clock
    }

    /// Always `"memory"`.
    public nonisolated var backendName: String { "memory" }

    /// Stores `credential` under `key`, replacing any previous one.
    public func save(_ credential: Credential, for key: CredentialKey) throws(TokenStoreError) {
        entries[key] = credential.stamped(replacing: entries[key], now: clock.now)
    }

    /// Returns the credential under `key`, or `nil`.
    public func load(_ key: CredentialKey) throws(TokenStoreError) -> Credential? {
        entries[key]
    }

    /// Deletes the credential under `key`; returns `false` when there was none.
    @discardableResult
    public func delete(_ key: CredentialKey) throws(TokenStoreError) -> Bool {
        entries.removeValue(forKey: key) != nil
    }

    /// The accounts of `service`, sorted by name, without secrets.
    public func accounts(service: String) throws(TokenStoreError) -> [CredentialInfo] {
        entries
            .filter { $0.key.service == service }
            .map { CredentialInfo(account: $0.key.account, credential: $0.value) }
            .sorted { $0.account < $1.account }
    }

    /// Compare-and-swap; see ``TokenStore/replace(_:expected:with:)``.
    public func replace(_ key: CredentialKey, expected: Credential?, with new: Credential?) throws(TokenStoreError) -> Bool {
        guard Credential.matches(stored: entries[key], expected: expected) else { return false }
        if let new {
            entries[key] = new.stamped(replacing: entries[key], now: clock.now)
        } else {
            entries.removeValue(forKey: key)
        }
        return true
    }
}
