import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A raw HTTP/1.1 server on 127.0.0.1 whose answers a well-behaved framework will not send:
/// an endless chunked body, a `Content-Length` far over any cap, a body trickled one byte at a
/// time. Every request gets the same answer (any method, any path). Used by the fetch-gate
/// tests (each transport × each fetch) and by the peak-RSS tests of the binaries.
///
/// Bounded so it always stops by itself: each connection is served for at most
/// `connectionSeconds`, and ``stop()`` (or leaving ``with(_:connectionSeconds:_:)``) closes
/// the listener and every connection. Writes use `MSG_NOSIGNAL`, so a client that hangs up
/// ends that connection, never the test process.
public final class HostileBodyServer: @unchecked Sendable {
    // @unchecked Sendable: the counters and descriptor set are only touched under `lock`.

    /// What every request is answered with.
    public enum Answer: Sendable {
        /// `200`, `Transfer-Encoding: chunked`, 64 KiB chunks forever.
        case endlessChunked
        /// `200` with `Content-Length: announced`, then that many bytes at full speed.
        case contentLength(announced: Int)
        /// `200` with `Content-Length: 1000`, then one byte every `interval`.
        case trickle(interval: Duration)
    }

    /// The port the server listens on.
    public let port: Int
    private let listener: Int32
    private let answer: Answer
    private let connectionSeconds: Double
    private let lock = NSLock()
    private var open: Set<Int32> = []
    private var stopped = false
    private var requests = 0
    private var sent = 0
    private var closedByPeer = 0

    /// `http://127.0.0.1:PORT` followed by `path`.
    public func url(_ path: String = "/") -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!  // a loopback URL built from a port number
    }

    /// Requests whose head was read.
    public var requestCount: Int { lock.withLock { requests } }
    /// Body bytes the kernel accepted, over all connections.
    public var bodyBytesSent: Int { lock.withLock { sent } }
    /// Connections that ended because the client closed or reset them.
    public var connectionsClosedByClient: Int { lock.withLock { closedByPeer } }

    /// Listens on a free loopback port and serves `answer` on a thread per connection.
    public init(_ answer: Answer, connectionSeconds: Double = 60) throws {
        (listener, port) = try LoopbackSocket.listen(backlog: 64, reuseAddress: true)
        self.answer = answer
        self.connectionSeconds = connectionSeconds
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// Starts a server, runs `body` with it, and stops it (also when `body` throws).
    public static func with<T: Sendable>(
        _ answer: Answer, connectionSeconds: Double = 60, _ body: (HostileBodyServer) async throws -> T
    ) async throws -> T {
        let server = try HostileBodyServer(answer, connectionSeconds: connectionSeconds)
        defer { server.stop() }
        return try await body(server)
    }

    /// Closes the listener and every open connection; serving threads end at their next write.
    public func stop() {
        let descriptors: Set<Int32> = lock.withLock {
            guard !stopped else { return [] }
            stopped = true
            return open
        }
        Glibc.shutdown(listener, Int32(SHUT_RDWR))
        Glibc.close(listener)
        for descriptor in descriptors { Glibc.shutdown(descriptor, Int32(SHUT_RDWR)) }
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else {
                if errno == EINTR { continue }
                return
            }
            let accepted: Bool = lock.withLock {
                guard !stopped else { return false }
                open.insert(client)
                return true
            }
            guard accepted else {
                Glibc.close(client)
                return
            }
            Thread.detachNewThread { [self] in
                serve(client)
                lock.withLock { _ = open.remove(client) }
                Glibc.close(client)
            }
        }
    }

    /// Reads the request head (up to 64 KiB), then writes the answer until the client goes,
    /// the server stops or `connectionSeconds` pass.
    private func serve(_ client: Int32) {
        var head: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !head.containsHeadEnd, head.count < 65_536 {
            let count = recv(client, &buffer, buffer.count, 0)
            guard count > 0 else { return }
            head.append(contentsOf: buffer[0..<count])
        }
        lock.withLock { requests += 1 }
        let end = ContinuousClock.now + .seconds(connectionSeconds)
        switch answer {
        case .endlessChunked:
            guard write(client, Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n".utf8), body: false) else { return }
            let chunk = Array("10000\r\n".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 0x10000) + Array("\r\n".utf8)
            while ContinuousClock.now < end, write(client, chunk, body: true) {}
        case .contentLength(let announced):
            guard write(client, Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(announced)\r\n\r\n".utf8), body: false) else { return }
            let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 0x10000)
            var left = announced
            while left > 0, ContinuousClock.now < end, write(client, Array(chunk.prefix(left)), body: true) { left -= min(left, chunk.count) }
        case .trickle(let interval):
            guard write(client, Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n".utf8), body: false) else { return }
            for _ in 0..<1000 where ContinuousClock.now < end {
                Thread.sleep(forTimeInterval: Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18)
                guard write(client, [UInt8(ascii: "a")], body: true) else { return }
            }
        }
    }

    /// Writes all of `bytes`; false once the client is gone or the server stopped.
    private func write(_ client: Int32, _ bytes: [UInt8], body: Bool) -> Bool {
        var offset = 0
        while offset < bytes.count {
            guard !lock.withLock({ stopped }) else { return false }
            let count = bytes[offset...].withUnsafeBytes { Glibc.send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                lock.withLock { closedByPeer += 1 }
                return false
            }
            offset += count
            if body { lock.withLock { sent += count } }
        }
        return true
    }
}

private extension Array where Element == UInt8 {
    var containsHeadEnd: Bool {
        count >= 4 && indices.dropLast(3).contains { self[$0] == 13 && self[$0 + 1] == 10 && self[$0 + 2] == 13 && self[$0 + 3] == 10 }
    }
}
