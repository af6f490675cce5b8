import Dispatch
import Foundation
import TokenKitStore

/// One lazily opened libpq connection shared by a store's calls, reopened after it is lost.
///
/// Guarantees: nothing connects until the first call; every call runs on a private serial
/// queue (blocking libpq work never runs on Swift's cooperative pool, and calls of one store
/// are serialized); a lost connection (server restart, network reset) fails the call in
/// flight with a clear ``TokenStoreError`` and the next call connects again, so a client
/// recovers by itself once the server is back. A call on a connection that died while idle
/// is retried once on a fresh one (every statement the store runs is safe to repeat: reads,
/// an upsert of the same value, and version-checked writes). Connecting, each statement and
/// unacknowledged network writes are bounded by `timeoutSeconds` (libpq's
/// `connect_timeout`, the session's `statement_timeout` and `tcp_user_timeout`).
final class PostgresSession: @unchecked Sendable {
    // @unchecked Sendable: `connection` is read and written only on `queue`.
    let endpoint: PostgresEndpoint
    let timeoutSeconds: Int
    private let queue = DispatchQueue(label: "dev.tokenkit.postgres")
    private var connection: PGConnection?

    init(endpoint: PostgresEndpoint, timeoutSeconds: Int) {
        self.endpoint = endpoint
        self.timeoutSeconds = timeoutSeconds
    }

    /// Runs `body` on the connection, on the session's queue; `what` names the operation in errors.
    func run<T: Sendable>(
        _ what: String, _ body: @escaping @Sendable (PGConnection) throws(PGError) -> T
    ) async throws(TokenStoreError) -> T {
        try await BlockingCall.run(on: queue) { [self] () throws(TokenStoreError) -> T in
            let reused = connection?.isUsable ?? false
            do throws(PGError) {
                return try attempt(body)
            } catch where reused && error.connectionLost {
                do throws(PGError) { return try attempt(body) } catch { throw PostgresFailure.storeError(error, doing: what, endpoint: endpoint) }
            } catch {
                throw PostgresFailure.storeError(error, doing: what, endpoint: endpoint)
            }
        }
    }

    /// Closes the connection; the next call opens a new one.
    func close() async {
        try? await BlockingCall.run(on: queue) { [self] () throws(TokenStoreError) in
            connection?.close()
            connection = nil
        }
    }

    /// Runs `body` on the current connection (connecting first when needed). Runs on `queue`.
    private func attempt<T>(_ body: (PGConnection) throws(PGError) -> T) throws(PGError) -> T {
        let current: PGConnection
        if let connection, connection.isUsable {
            current = connection
        } else {
            connection?.close()
            connection = nil
            do {
                current = try PGConnection.connect(endpoint, timeout: timeoutSeconds)
            } catch {
                throw PGError(sqlState: error.sqlState, message: error.message, connectionLost: true, whileConnecting: true)
            }
            connection = current
        }
        do {
            return try body(current)
        } catch {
            if error.connectionLost {
                current.close()
                connection = nil
            }
            throw error
        }
    }
}
