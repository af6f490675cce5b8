import Dispatch
import Foundation
import TokenKitAuth
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
/// - Waiting happens in the server (`pg_advisory_lock` under `lock_timeout`), not in a poll
///   loop: the next waiter gets the lock as soon as it is released. After ``timeout`` the
///   acquisition fails with ``AuthError/Code/lock``; an unreachable server fails it with a
///   message naming the server. The wait blocks a thread of a private dispatch queue, never
///   the cooperative pool; cancelling the task cancels the wait in the server.
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

    /// A lock on `endpoint`; nothing connects until ``acquire(for:)``.
    public init(endpoint: PostgresEndpoint, namespace: String = "tokenkit", timeout: Duration = .seconds(30)) {
        self.endpoint = endpoint
        self.namespace = namespace
        self.timeout = timeout
    }

    /// Takes the lock for `key` on a new connection, waiting up to ``timeout``.
    public func acquire(for key: CredentialKey) async throws(AuthError) -> RefreshLockLease {
        let lockID = try Self.lockID(namespace: namespace, key: key)
        let milliseconds = max(1, timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        let (endpoint, timeout) = (endpoint, timeout)
        let queue = DispatchQueue(label: "dev.tokenkit.postgres-lock")
        let holder = ConnectionBox()
        let result: Result<PGConnection, AuthError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                queue.async {
                    continuation.resume(returning: Self.lock(
                        lockID, key: key, endpoint: endpoint, milliseconds: milliseconds, timeout: timeout, holder: holder))
                }
            }
        } onCancel: {
            holder.cancel()
        }
        let connection: PGConnection
        switch result {
        case .success(let held): connection = held
        case .failure(let error): throw Task.isCancelled ? .cancelled : error
        }
        if Task.isCancelled {
            queue.async { connection.close() }
            throw .cancelled
        }
        return RefreshLockLease {
            // Unlock explicitly (fast), then close: closing alone also releases the lock.
            queue.async {
                _ = try? connection.query("SELECT pg_advisory_unlock($1)", [.int64(lockID)])
                connection.close()
            }
        }
    }

    /// Connects and waits in the server for the advisory lock (blocking; runs on the lock's queue).
    private static func lock(
        _ lockID: Int64, key: CredentialKey, endpoint: PostgresEndpoint, milliseconds: Int64, timeout: Duration, holder: ConnectionBox
    ) -> Result<PGConnection, AuthError> {
        let connection: PGConnection
        do {
            connection = try PGConnection.connect(endpoint, timeout: Int(min(15, max(2, milliseconds / 1000))))
        } catch {
            var failure = error
            failure.whileConnecting = true
            return .failure(.lock(PostgresFailure.storeError(failure, doing: "connecting", endpoint: endpoint).message))
        }
        holder.set(connection)
        do {
            // A waiter whose client died is noticed within a second and never takes the lock.
            try connection.query("SET client_connection_check_interval = 1000")
            try connection.query("SET statement_timeout = 0")
            try connection.query("SET lock_timeout = \(milliseconds)")
            try connection.query("SELECT pg_advisory_lock($1)", [.int64(lockID)])
            return .success(connection)
        } catch {
            connection.close()
            if error.sqlState == "55P03" {
                return .failure(.lock("timed out after \(timeout) waiting for another process to finish refreshing \(key)"))
            }
            if error.sqlState == "57014" { return .failure(.cancelled) }
            return .failure(.lock(PostgresFailure.storeError(error, doing: "waiting for the refresh lock", endpoint: endpoint).message))
        }
    }

    /// The advisory-lock id of `key`: the first 8 bytes of
    /// SHA-256("tokenkit refresh lock" 0 namespace 0 service 0 account), as a signed integer.
    static func lockID(namespace: String, key: CredentialKey) throws(AuthError) -> Int64 {
        let input = Array("tokenkit refresh lock".utf8) + [0] + Array(namespace.utf8) + [0]
            + Array(key.service.utf8) + [0] + Array(key.account.utf8)
        let digest: [UInt8]
        do { digest = try SHA256Digest.hash(input) } catch { throw .lock("cannot hash the credential key: \(error.message)") }
        return Int64(bitPattern: digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
    }
}

/// The connection of an acquisition in progress, so that cancelling the task can interrupt
/// the server-side wait (`PQcancel` is thread-safe).
private final class ConnectionBox: @unchecked Sendable {
    // @unchecked: `connection` and `cancelled` are touched only while `mutex` is held.
    private let mutex = NSLock()
    private var connection: PGConnection?
    private var cancelled = false

    func set(_ connection: PGConnection) {
        mutex.lock()
        self.connection = connection
        let cancelNow = cancelled
        mutex.unlock()
        if cancelNow { connection.cancel() }
    }

    func cancel() {
        mutex.lock()
        cancelled = true
        let current = connection
        mutex.unlock()
        current?.cancel()
    }
}
