import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A raw TCP connection to a loopback server, for tests that do what an HTTP client will not
/// (send half a request head, a byte at a time, or nothing at all; read an answer exactly as
/// the server wrote it, redirects not followed) and watch how the server ends the connection.
public final class LoopbackConnection: @unchecked Sendable {
    // @unchecked: `descriptor` is written once in init; the socket is used by one caller at a time.
    private let descriptor: Int32

    /// Connects to 127.0.0.1:`port` (loopback connects at once).
    public init(port: Int) throws {
        descriptor = try LoopbackSocket.connect(to: port)
    }

    deinit { Glibc.close(descriptor) }

    /// Sends all of `text` as UTF-8.
    public func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// Sends all of `bytes`; throws ``LoopbackSocket/Failed`` once the server has closed the
    /// connection.
    public func send(_ bytes: [UInt8]) throws {
        var bytes = bytes[...]
        while !bytes.isEmpty {
            let sent = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent < 0, errno == EINTR { continue }
            guard sent > 0 else { throw LoopbackSocket.Failed("send to 127.0.0.1") }
            bytes = bytes.dropFirst(sent)
        }
    }

    /// Reads (on a thread of its own) until the server closes the connection or `timeout`
    /// passes. Returns what was read and whether the connection was closed by the server
    /// (end of stream or reset); `false` means it was still open at the timeout.
    public func readUntilClosed(timeout: Duration = .seconds(60)) async throws -> (received: [UInt8], closed: Bool) {
        let descriptor = descriptor
        let deadline = ContinuousClock.now + timeout
        return try await offPool {
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let left = deadline - ContinuousClock.now
                guard left > .zero else { return (received, false) }
                var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                let ready = poll(&entry, 1, Int32(clamping: left.components.seconds * 1000 + 1))
                if ready < 0, errno == EINTR { continue }
                guard ready > 0 else { continue }
                let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return (received, true) }
                received += buffer[..<count]
            }
        }
    }
}
