import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A loopback TCP port that accepts connections (the kernel completes the handshake) but never
/// reads or answers: a server that stopped responding. Closed by ``close()``.
public final class SilentListener: @unchecked Sendable {
    // @unchecked: `descriptor` is written once in init and read-only afterwards.
    private let descriptor: Int32
    /// The port connections go to.
    public let port: Int

    /// Listens on 127.0.0.1 on a free port.
    public init() throws {
        (descriptor, port) = try LoopbackSocket.listen(backlog: 16)
    }

    /// Waits (on a thread of its own, up to `timeout`) until a connection is pending, without
    /// accepting it; `true` when one is.
    public func waitForPendingConnection(timeout: Duration = .seconds(30)) async throws -> Bool {
        let descriptor = descriptor
        let milliseconds = Int32(clamping: timeout.components.seconds * 1000)
        return try await offPool {
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            return poll(&entry, 1, milliseconds) == 1 && entry.revents & Int16(POLLIN) != 0
        }
    }

    /// Stops listening (pending connections are reset).
    public func close() { Glibc.close(descriptor) }
}
