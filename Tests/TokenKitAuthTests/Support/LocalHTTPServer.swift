import Foundation
import Hummingbird
import Logging
import NIOCore

/// Runs Hummingbird routers on 127.0.0.1 for tests: one way to start, learn the port and stop.
enum LocalHTTPServer {
    /// Serves `router` on an ephemeral loopback port, runs `body` with the port (bounded by
    /// two minutes), then stops the server, also when `body` throws.
    static func run<T: Sendable>(
        _ router: Router<BasicRequestContext>, label: String,
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
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                try await app.run()
                return nil
            }
            defer { group.cancelAll() }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next(), port > 0 else { throw DeadlineExceeded(what: "server did not start") }
            return try await withDeadline("test body", seconds: 120) { try await body(port) }
        }
    }
}
