#if Postgres
import Foundation
internal import TokenKitCrypto
import TokenKitStore

/// A ``RefreshLock`` shared by every replica that uses the same PostgreSQL database: a
/// session-level advisory lock held on a connection of its own for as long as the lease.
///
/// Guarantees:
/// - Mutual exclusion per credential key across processes and hosts; different keys never
///   wait for each other (unless two keys share a 64-bit hash, which only makes them share
///   a lock).
/// - A holder that dies cannot wedge the others: the lock belongs to the holder's database
///   session, and the server ends that session (releasing the lock) as soon as the
///   connection closes, including when the process is killed with SIGKILL. Waiters check
///   every second that their own client is still there (`client_connection_check_interval`),
///   so a killed waiter does not take the lock and hold it.
/// - A holder that freezes (SIGSTOP, a hung VM) or whose host vanishes from the network
///   releases the lock within its ``holderSilence`` (60 s unless given; with the default, at
///   most 90 s is promised): while it holds the lock, a live holder sends a tiny statement
///   every ``heartbeat`` (a sixth of the silence: 10 s by default), and its session is ended
///   by the server once it has been silent for ``holderSilence``
///   (`idle_session_timeout`, PostgreSQL 14 or later), with TCP keepalives and
///   `tcp_user_timeout` (15 s idle, 5 s × 3 probes; 30 s unacknowledged) so a vanished host's
///   connection is dropped even sooner when the network tells. Waiters still wait up to
///   ``timeout``: give it more than ``holderSilence`` if a frozen holder should be outwaited.
/// - Waiting happens in the server (`pg_advisory_lock` under `lock_timeout`), not in a poll
///   loop: the next waiter gets the lock as soon as it is released. After ``timeout`` the
///   acquisition fails with ``TokenStoreError/Code/lock``; an unreachable server fails it with a
///   message naming the server. The wait is a non-blocking postgres-nio query (no thread is
///   held); cancelling the task closes the waiting connection, which ends the wait.
///
/// ``AuthProvider`` re-reads the store after acquiring, as with ``FileRefreshLock``, so a
/// waiter finds the token set the holder saved. Does not: keep the lock through a database
/// restart (the session ends; the store's compare-and-swap still prevents a lost update),
/// or coordinate with clients of another database.
public struct PostgresRefreshLock: RefreshLock {
    /// The server holding the locks.
    public let endpoint: PostgresEndpoint
    /// Separates lock spaces (e.g. one per table or application) in one database.
    public let namespace: String
    /// How long ``acquire(for:)`` waits before giving up.
    public let timeout: Duration
    /// How long a holder's session (the one that took the lock through this value) may stay
    /// silent before the server ends it, and so releases the lock: how long the others wait
    /// for a holder that froze or whose host vanished. Always within ``holderSilenceRange``.
    public let holderSilence: Duration
    /// ``holderSilence`` unless one is given: 60 s.
    public static let defaultHolderSilence: Duration = .seconds(60)
    /// The silences a lock accepts, 3 s to 1 hour; the initializer clamps a value outside to
    /// the nearer end (below 3 s a heartbeat would be due every half second; above an hour
    /// a frozen holder would hold the others for longer than any token lives).
    public static let holderSilenceRange: ClosedRange<Duration> = .seconds(3) ... .seconds(3600)
    /// How often a holder shows the server it is alive while it holds the lock: a sixth of
    /// ``holderSilence`` (10 s by default), so a live holder is never ended for silence.
    public var heartbeat: Duration { holderSilence / 6 }

    /// A lock on `endpoint`; nothing connects until ``acquire(for:)``. `holderSilence` is
    /// clamped to ``holderSilenceRange``.
    public init(
        endpoint: PostgresEndpoint, namespace: String = "tokenkit", timeout: Duration = .seconds(30),
        holderSilence: Duration = PostgresRefreshLock.defaultHolderSilence
    ) {
        self.endpoint = endpoint
        self.namespace = namespace
        self.timeout = timeout
        self.holderSilence = min(max(holderSilence, Self.holderSilenceRange.lowerBound), Self.holderSilenceRange.upperBound)
    }

    /// The session settings of a lock's connection: no statement timeout (waiting is bounded
    /// by `lock_timeout`), a check every second that a waiting client is still there, the
    /// server ending a session silent for `holderSilence`, and TCP liveness probes.
    static func sessionSettings(lockTimeout: Duration, holderSilence: Duration) -> [(String, String)] {
        [
            ("statement_timeout", "0"),
            ("lock_timeout", String(PostgresSession.milliseconds(lockTimeout))),
            ("client_connection_check_interval", "1000"),
            ("idle_session_timeout", String(PostgresSession.milliseconds(holderSilence))),
            ("tcp_keepalives_idle", "15"),
            ("tcp_keepalives_interval", "5"),
            ("tcp_keepalives_count", "3"),
            ("tcp_user_timeout", "30000"),
        ]
    }

    /// Takes the lock for `key` on a new connection, waiting up to ``timeout``.
    public func acquire(for key: CredentialKey) async throws(TokenStoreError) -> RefreshLockLease {
        let lockID = try Self.lockID(namespace: namespace, key: key)
        // A session of its own: the lock lives exactly as long as this connection. Waiting
        // happens in the server under lock_timeout (no statement_timeout); a waiter whose
        // client died is noticed within a second and never takes the lock; a holder that
        // goes silent is ended by the server (idle_session_timeout).
        let session = PostgresSession(
            endpoint: endpoint, timeout: min(.seconds(15), max(.seconds(2), timeout)),
            settings: Self.sessionSettings(lockTimeout: timeout, holderSilence: holderSilence))
        let limit = timeout + .seconds(5)
        do {
            try await withTaskCancellationHandler {
                _ = try await session.run("waiting for the refresh lock") { (connection) async throws(PGError) in
                    try await connection.query("SELECT pg_advisory_lock($1)", [.int64(lockID)], limit: limit)
                }
            } onCancel: {
                // Closing the connection ends the wait in the server.
                Task { await session.close(permanently: true) }
            }
        } catch let error as TokenStoreError {
            await session.close(permanently: true)
            if Task.isCancelled { throw .cancelled("cancelled while waiting for the refresh lock") }
            if error.code == .timeout {
                throw .lock("timed out after \(timeout) waiting for another process to finish refreshing \(key)")
            }
            throw .lock(error.message)
        } catch {
            await session.close(permanently: true)
            throw Task.isCancelled ? .cancelled("cancelled while waiting for the refresh lock") : .lock("\(error)")
        }
        if Task.isCancelled {
            await session.close(permanently: true)
            throw .cancelled("cancelled while waiting for the refresh lock")
        }
        // While held, a statement every `heartbeat` keeps the session from looking silent.
        let interval = heartbeat
        let heartbeat = Task {
            while !Task.isCancelled {
                do { try await Task.sleep(for: interval) } catch { return }
                guard await session.keepAlive() else { return }
            }
        }
        return RefreshLockLease {
            heartbeat.cancel()
            // Unlock explicitly (fast), then close: closing alone also releases the lock.
            // A session that already ended (server restart, terminated) is not reopened for it.
            Task { await session.finish(with: "SELECT pg_advisory_unlock($1)", [.int64(lockID)]) }
        }
    }

    /// The advisory-lock id of `key`: the first 8 bytes of
    /// SHA-256("tokenkit refresh lock" 0 namespace 0 service 0 account), as a signed integer.
    static func lockID(namespace: String, key: CredentialKey) throws(TokenStoreError) -> Int64 {
        do { return try AdvisoryLockID.of(["tokenkit refresh lock", namespace, key.service, key.account]) } catch {
            throw .lock("cannot hash the credential key: \(error.message)")
        }
    }
}
#endif
