/// Serializes refreshes of one stored credential across processes (and hosts, for a lock
/// kept by a shared backend such as PostgreSQL).
///
/// It lives next to ``TokenStore`` because a backend that is shared by many processes brings
/// its own lock (the PostgreSQL backend does); the auth module's `AuthProvider` takes the
/// lock before it re-reads the store and calls the refresher, and releases it after the new
/// token set is saved, so a second process that waited on the lock finds the refreshed
/// credential in the store and does not call the server.
///
/// Guarantees only mutual exclusion among holders of the same lock implementation and
/// directory (or database); it does not protect against writers that do not take the lock.
public protocol RefreshLock: Sendable {
    /// Waits (without blocking a thread of the cooperative pool) until this caller holds the
    /// lock for `key`. Throws ``TokenStoreError/Code/lock`` when it cannot be taken in time
    /// or the lock itself is unusable (an unsafe directory, an unreachable server), and
    /// ``TokenStoreError/Code/cancelled`` when the waiting task is cancelled.
    func acquire(for key: CredentialKey) async throws(TokenStoreError) -> RefreshLockLease
}
