#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TokenKitTestSupport

/// A raw TCP client of a loopback port, for the listener tests that need what an HTTP client
/// will not do: send a request a byte at a time, open connections and send nothing, or read
/// a response exactly as the server wrote it (redirects not followed).
final class LoopbackClient: @unchecked Sendable {
    // @unchecked: `fd` is set once in init; the socket calls are thread-safe.
    private let fd: Int32

    /// Connects to `127.0.0.1:port` (blocking; loopback connects at once).
    init(port: UInt16) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw DeadlineExceeded(what: "socket()") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            throw DeadlineExceeded(what: "connecting to 127.0.0.1:\(port)")
        }
    }

    deinit { close(fd) }

    /// Sends `bytes`; `false` once the server has closed the connection.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }

    /// Sends `GET target HTTP/1.1` and reads the whole response.
    func get(_ target: String) throws -> String {
        send(Array("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
        return try readToEnd()
    }

    /// Reads until the server closes the connection (at most 30 s, a bound against hangs).
    func readToEnd() throws -> String {
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count == 0 { return String(decoding: bytes, as: UTF8.self) }
            guard count > 0 else { throw DeadlineExceeded(what: "reading a response (errno \(errno))") }
            bytes += chunk[0..<count]
        }
    }

    /// Whether the server has closed the connection (a read returns end of file), waiting up
    /// to `seconds` for it.
    func isClosedByServer(within seconds: Int) -> Bool {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 { continue }
            return count == 0 || errno == ECONNRESET
        }
    }
}
