import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A minimal HTTP/1.1 server on 127.0.0.1 that answers every request with one fixed JSON
/// body (here: a JWKS document), one connection at a time, on a thread of its own. Enough
/// for a `RemoteJWKS` to warm up through a real fetch; it lives until the process exits.
public final class LoopbackServer: @unchecked Sendable {
    // @unchecked Sendable: `requests` is only touched under `lock`; the rest is immutable.
    public let port: UInt16
    private let listener: Int32
    private let response: [UInt8]
    private let lock = NSLock()
    private var requests = 0

    /// Requests answered so far.
    public var requestCount: Int { lock.withLock { requests } }

    public init(body: String, cacheControl: String = "max-age=3600") throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw BenchError("socket failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 16) == 0 else { close(fd); throw BenchError("cannot listen on 127.0.0.1") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        listener = fd
        let bytes = Array(body.utf8)
        let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nCache-Control: \(cacheControl)\r\n"
            + "Content-Length: \(bytes.count)\r\nConnection: close\r\n\r\n"
        response = Array(head.utf8) + bytes
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    /// The URL of the served document.
    public var url: URL { URL(string: "http://127.0.0.1:\(port)/.well-known/jwks.json")! }

    private func serve() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            // Read the request head (the body of a GET is empty).
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !received.suffix(4).elementsEqual([13, 10, 13, 10]) {
                let n = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
                guard n > 0 else { break }
                received += buffer[0..<n]
            }
            lock.withLock { requests += 1 }
            var sent = 0
            while sent < response.count {
                let n = response.withUnsafeBytes { send(client, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
                guard n > 0 else { break }
                sent += n
            }
            close(client)
        }
    }
}
