import TokenKitStore

/// Serializes refreshes of one stored credential across processes.
///
/// ``AuthProvider`` takes the lock before it re-reads the store and calls the refresher, and
/// releases it after the new token set is saved, so a second process that waited on the
/// lock finds the refreshed credential in the store and does not call the server.
/// Guarantees only mutual exclusion among holders of the same lock implementation and
/// directory; it does not protect against writers that do not take the lock.
public protocol RefreshLock: Sendable {
    /// Waits (without blocking a thread of the cooperative pool) until this caller holds the
    /// lock for `key`; throws ``AuthError/Code/lock`` when it cannot be taken in time.
    func acquire(for key: CredentialKey) async throws(AuthError) -> RefreshLockLease
}
