#if Postgres
import NIOCore
import PostgresNIO
import TokenKitStore

/// The one owner of a PostgreSQL connection: opens it lazily, hands it to calls, notices when
/// it is lost and opens a new one on the next call, and closes it.
///
/// Guarantees:
/// - Nothing connects until the first call; concurrent first calls share one connection
///   attempt. Connections run on postgres-nio's default event loop group (SwiftNIO's
///   process-wide `MultiThreadedEventLoopGroup.singleton`, never shut down by TokenKit), so a
///   session owns no threads of its own and never blocks Swift's cooperative pool.
/// - Connecting and each statement are bounded: postgres-nio's connect timeout and the
///   session's own client-side limit, plus the server-side `statement_timeout` the session
///   sets at login. A stopped server or a silent network fails the call with a clear
///   ``TokenStoreError`` instead of hanging.
/// - A lost connection (server restart, network reset) fails the call in flight and the next
///   call connects again, so a client recovers by itself once the server is back. A call on a
///   connection that died while idle is retried once on a new connection (every statement
///   TokenKit runs is safe to repeat: reads, upserts of the same value, version-checked writes).
/// - ``close(permanently:)`` waits until the connection is closed; the server then ends the
///   session and releases its session-level advisory locks. After a permanent close (or
///   ``finish(with:_:)``), no call connects again.
actor PostgresSession {
    let endpoint: PostgresEndpoint
    /// The bound on connecting and (plus a margin for the server's own timeout) on each statement.
    let timeout: Duration
    private let settings: [(String, String)]
    private let eventLoopGroup: any EventLoopGroup = PostgresConnection.defaultEventLoopGroup
    private var connection: PGConnection?
    private var connecting: Task<Result<PGConnection, PGError>, Never>?
    private var retired = false
    private var connectionCount = 0

    /// A session for `endpoint`; `settings` are server settings sent at login (a
    /// `statement_timeout` among them replaces the session's own, which is `timeout`).
    init(endpoint: PostgresEndpoint, timeout: Duration, settings: [(String, String)] = []) {
        self.endpoint = endpoint
        self.timeout = timeout
        self.settings = settings
    }

    deinit {
        // Keep the connection referenced until it has closed (postgres-nio requires it).
        if let base = connection?.base {
            base.close().whenComplete { _ in withExtendedLifetime(base) {} }
        }
        // A connection still being opened is closed as soon as it exists.
        if let pending = connecting {
            Task {
                if case .success(let opened) = await pending.value { await opened.close() }
            }
        }
    }

    /// Runs `body` on the connection (connecting first when needed); `what` names the
    /// operation in errors, which are ``TokenStoreError``s naming the server.
    func run<T: Sendable>(
        _ what: String, _ body: @Sendable (PGConnection) async throws(PGError) -> T
    ) async throws(TokenStoreError) -> T {
        let reused = connection.map { !$0.isClosed } ?? false
        do throws(PGError) {
            return try await attempt(body)
        } catch where reused && error.connectionLost && !error.whileConnecting && error.kind != .timedOut {
            do throws(PGError) { return try await attempt(body) } catch { throw PostgresFailure.storeError(error, doing: what, endpoint: endpoint) }
        } catch {
            throw PostgresFailure.storeError(error, doing: what, endpoint: endpoint)
        }
    }

    /// Closes the connection and waits until it is closed; unless `permanently`, the next
    /// call opens a new one.
    func close(permanently: Bool = false) async {
        if permanently { retired = true }
        let current = connection
        connection = nil
        connecting?.cancel()
        await current?.close()
    }

    /// Runs a last statement on the connection if it is still open (never connecting for
    /// it; failures are ignored), then closes for good: how a lock's session ends.
    func finish(with sql: String, _ parameters: [PGValue?]) async {
        retired = true
        if let current = connection, !current.isClosed {
            _ = try? await current.query(sql, parameters)
        }
        await close(permanently: true)
    }

    /// Runs `SELECT 1` on the connection if it is still open (never connecting for it):
    /// shows the server a lock holder is alive. Returns whether the connection is still usable.
    func keepAlive() async -> Bool {
        guard !retired, let current = connection, !current.isClosed else { return false }
        do {
            try await current.query("SELECT 1")
            return true
        } catch {
            return !current.isClosed
        }
    }

    private func attempt<T: Sendable>(_ body: @Sendable (PGConnection) async throws(PGError) -> T) async throws(PGError) -> T {
        let current = try await open()
        do {
            return try await body(current)
        } catch {
            if error.connectionLost || current.isClosed {
                if connection?.base === current.base { connection = nil }
                await current.close()
            }
            throw error
        }
    }

    /// The open connection, or a new one (one attempt shared by concurrent callers).
    private func open() async throws(PGError) -> PGConnection {
        if let connection, !connection.isClosed { return connection }
        guard !retired else { throw PGError(.connectionLost, message: "the connection was closed", whileConnecting: true) }
        if let stale = connection {
            connection = nil
            await stale.close()
        }
        let task: Task<Result<PGConnection, PGError>, Never>
        if let connecting {
            task = connecting
        } else {
            let statementTimeout = settings.contains { $0.0 == "statement_timeout" } ? [] : [("statement_timeout", String(Self.milliseconds(timeout)))]
            let configuration = try endpoint.configuration(timeout: timeout, settings: statementTimeout + settings)
            connectionCount += 1
            let (limit, eventLoop, id) = (timeout, eventLoopGroup.any(), connectionCount)
            task = Task { () async -> Result<PGConnection, PGError> in
                do throws(PGError) {
                    return .success(try await PGConnection.connect(
                        configuration, id: id, on: eventLoop, limit: limit, statementLimit: limit + .seconds(2)))
                } catch {
                    return .failure(error)
                }
            }
            connecting = task
        }
        let result = await task.value
        if connecting == task { connecting = nil }
        let opened = try result.get()
        if retired {
            // Closed for good while connecting: do not keep the connection.
            await opened.close()
            throw PGError(.connectionLost, message: "the connection was closed", whileConnecting: true)
        }
        connection = opened
        return opened
    }

    /// `duration` in whole milliseconds (at least 1).
    static func milliseconds(_ duration: Duration) -> Int64 {
        max(1, duration.wholeMilliseconds)
    }
}
#endif
