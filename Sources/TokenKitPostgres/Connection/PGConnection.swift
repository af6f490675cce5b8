#if Postgres
import Foundation
import Logging
import NIOCore
import PostgresNIO

/// One postgres-nio connection with the bounds TokenKit puts on it: connecting and every
/// statement end within a client-side limit even when the server or the network stops
/// answering (the connection is then closed and the call fails with ``PGError/Kind/timedOut``).
///
/// Owned by a ``PostgresSession``, which alone opens and closes it.
struct PGConnection: Sendable {
    let base: PostgresConnection
    /// The client-side bound on one statement (the server's `statement_timeout` plus a margin).
    let statementLimit: Duration

    /// postgres-nio logs nothing TokenKit shows: notices and connection events go nowhere, so
    /// neither stderr (the CLI's output rules) nor a host application's log sees them.
    static let silent = Logger(label: "dev.tokenkit.postgres", factory: { _ in SwiftLogNoOpLogHandler() })

    /// Connects and logs in, within `limit`. A connection that completes after the limit
    /// passed (a slow login: SCRAM's key stretching on a busy host) is closed, never dropped
    /// open (postgres-nio traps on a connection released without being closed).
    static func connect(
        _ configuration: PostgresConnection.Configuration, id: Int, on eventLoop: any EventLoop,
        limit: Duration, statementLimit: Duration
    ) async throws(PGError) -> PGConnection {
        let made = LateConnection()
        do {
            let base = try await bounded(limit, whileConnecting: true, onTimeout: {}) { () async throws(PGError) -> PostgresConnection in
                do {
                    let connection = try await PostgresConnection.connect(on: eventLoop, configuration: configuration, id: id, logger: silent)
                    made.keep(connection)
                    return connection
                } catch {
                    throw PGError(error, whileConnecting: true)
                }
            }
            made.release()
            return PGConnection(base: base, statementLimit: statementLimit)
        } catch {
            // The bound passed (or the task was cancelled) after the login completed.
            if let late = made.release() { try? await late.close() }
            throw error
        }
    }

    /// Whether the connection is closed (by us, the server, or the network).
    var isClosed: Bool { base.isClosed }

    /// Runs one statement with typed parameters and returns its rows, within `limit` (default
    /// ``statementLimit``).
    @discardableResult
    func query(_ sql: String, _ parameters: [PGValue?] = [], limit: Duration? = nil) async throws(PGError) -> [PGRow] {
        let base = base
        let query = PostgresQuery(unsafeSQL: sql, binds: PGValue.bindings(parameters))
        return try await Self.bounded(limit ?? statementLimit, whileConnecting: false, onTimeout: { base.close(promise: nil) }) { () async throws(PGError) -> [PGRow] in
            do {
                var rows: [PGRow] = []
                for try await row in try await base.query(query, logger: Self.silent) {
                    rows.append(PGRow(row))
                }
                return rows
            } catch {
                throw PGError(error, whileConnecting: false)
            }
        }
    }

    /// Closes the connection and waits until it is closed (the server then ends the session,
    /// releasing its advisory locks).
    func close() async {
        try? await base.close()
    }

    /// Runs `operation`, failing with ``PGError/Kind/timedOut`` after `limit`; `onTimeout`
    /// makes a stuck operation finish (closing its connection) and the task is cancelled.
    /// Returns when `operation` has returned (the group waits for it).
    private static func bounded<T: Sendable>(
        _ limit: Duration, whileConnecting: Bool, onTimeout: @escaping @Sendable () -> Void,
        _ operation: @escaping @Sendable () async throws(PGError) -> T
    ) async throws(PGError) -> T {
        let outcome = await withTaskGroup(of: Result<T, PGError>?.self) { group in
            group.addTask {
                do throws(PGError) { return .success(try await operation()) } catch { return .failure(error) }
            }
            group.addTask {
                do {
                    try await Task.sleep(for: limit)
                    return nil
                } catch {
                    // The caller's task was cancelled: not a timeout, and the connection stays
                    // open (the statement still ends within the server's statement_timeout).
                    return .failure(PGError(.server, sqlState: "57014", message: "the task was cancelled", whileConnecting: whileConnecting))
                }
            }
            let first = await group.next() ?? nil
            if first == nil { onTimeout() }
            group.cancelAll()
            return first
        }
        switch outcome {
        case .success(let value)?: return value
        case .failure(let error)?: throw error
        case nil:
            throw PGError(.timedOut, message: "no answer within \(limit)", whileConnecting: whileConnecting)
        }
    }
}

/// Holds a connection made while connecting was bounded, so that one finished after the bound
/// passed is still referenced (and then closed) instead of being released open.
private final class LateConnection: @unchecked Sendable {
    // @unchecked: `connection` is read and written only while `lock` is held.
    private let lock = NSLock()
    private var connection: PostgresConnection?

    func keep(_ made: PostgresConnection) { lock.withLock { connection = made } }

    /// Gives up the reference; returns the connection held, if any.
    @discardableResult
    func release() -> PostgresConnection? {
        lock.withLock {
            defer { connection = nil }
            return connection
        }
    }
}

extension PostgresConnection {
    /// Starts closing (fire and forget); used when a bound passes.
    fileprivate func close(promise: EventLoopPromise<Void>?) {
        let future: EventLoopFuture<Void> = close()
        future.cascade(to: promise)
    }
}
#endif
