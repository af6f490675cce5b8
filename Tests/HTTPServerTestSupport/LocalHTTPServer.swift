#if Hummingbird
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import TokenKitTestSupport

/// Runs Hummingbird routers on 127.0.0.1 for tests: one way to start, learn the port and stop.
public enum LocalHTTPServer {
    /// Serves `router` on an ephemeral loopback port, runs `body` with the port (bounded by
    /// `seconds`), then stops the server, also when `body` throws.
    ///
    /// Stopping is a graceful shutdown: the listening socket closes, and every connection
    /// already accepted is handed to the server, which finishes its request and closes it.
    /// Only when that takes longer than `grace` (a handler that hangs on purpose) is the server
    /// cancelled. Cancelling first would be a crash, not a shortcut: a connection that NIO had
    /// accepted but not yet handed over is then dropped, and NIO traps on it ("Deinited
    /// NIOAsyncWriter without calling finish()", apple/swift-nio#3481).
    ///
    /// Throws ``DeadlineExceeded`` when the server does not start (with the server's error)
    /// or `body` overruns `seconds`; otherwise rethrows what `body` throws.
    public static func run<T: Sendable>(
        _ router: Router<BasicRequestContext>, label: String, seconds: Double = 120,
        grace: Duration = .seconds(2),
        _ body: @escaping @Sendable (Int) async throws -> T
    ) async throws -> T {
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        var logger = Logger(label: label)
        logger.logLevel = .critical
        let app = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                portContinuation.yield(channel.localAddress?.port ?? 0)
                portContinuation.finish()
            },
            logger: logger)
        let server = ServiceGroup(configuration: .init(services: [app], logger: logger))
        let outcome = await withTaskGroup(of: Stop.self) { group -> Result<T, any Error> in
            group.addTask {
                defer { portContinuation.finish() }
                do {
                    try await server.run()
                    return .serverEnded(nil)
                } catch {
                    return .serverEnded(error)
                }
            }
            var iterator = ports.makeAsyncIterator()
            let announced = await iterator.next()
            let outcome: Result<T, any Error>
            if let port = announced, port > 0 {
                do {
                    outcome = .success(try await withDeadline("test body", seconds: seconds) { try await body(port) })
                } catch {
                    outcome = .failure(error)
                }
            } else if announced == nil {
                // The stream ends unannounced only when the server task has returned: its error
                // says why it never started, and there is nothing left to stop.
                let ended = await group.next()
                let reason = if case .serverEnded(let error?) = ended { ": \(error)" } else { "" }
                return .failure(DeadlineExceeded(what: "server did not start\(reason)"))
            } else {
                outcome = .failure(DeadlineExceeded(what: "server started without a port"))
            }
            await server.triggerGracefulShutdown()
            group.addTask {
                try? await Task.sleep(for: grace)
                return .graceExpired
            }
            _ = await group.next()
            group.cancelAll()
            return outcome
        }
        return try outcome.get()
    }

    /// How the wait for the server to stop ended.
    private enum Stop: Sendable {
        case serverEnded((any Error)?)
        case graceExpired
    }
}
#endif
