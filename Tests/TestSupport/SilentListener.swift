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

    /// Why a listener could not be set up.
    public struct Failed: Error, CustomStringConvertible {
        /// The call that failed.
        public let what: String
        /// "failed: `what`".
        public var description: String { "failed: \(what)" }
    }

    /// Listens on 127.0.0.1 on a free port.
    public init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failed(what: "socket()") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(descriptor, 16) == 0 else {
            Glibc.close(descriptor)
            throw Failed(what: "bind/listen on 127.0.0.1")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        self.descriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
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
