#if Postgres
import Foundation
import TokenKitTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A TCP relay on 127.0.0.1 in front of a server, for "the client's host vanished" tests:
/// it forwards bytes both ways until ``vanish()``, then forwards nothing more and closes
/// nothing — to the server the client has gone silent without a FIN or RST, as when its
/// machine loses power or its network, and to the client the server has too.
public final class BlackholeRelay: @unchecked Sendable {
    // @unchecked: `vanished` and `sockets` are read and written only while `lock` is held;
    // `listener` and `upstreamPort` are set once in init.
    private let listener: Int32
    private let upstreamPort: UInt16
    private let lock = NSLock()
    private var vanished = false
    private var sockets: [Int32] = []
    /// The port clients connect to.
    public let port: Int

    /// Listens on a free loopback port and relays each connection to `127.0.0.1:upstreamPort`.
    public init(upstreamPort: Int) throws {
        self.upstreamPort = UInt16(upstreamPort)
        (listener, port) = try LoopbackSocket.listen(backlog: 16)
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    /// From now on nothing is forwarded in either direction, and no socket is closed.
    public func vanish() { lock.withLock { vanished = true } }

    /// Closes every socket (the end of the test).
    public func close() {
        let all = lock.withLock { () -> [Int32] in
            vanished = true
            defer { sockets = [] }
            return sockets
        }
        Glibc.shutdown(listener, Int32(SHUT_RDWR))
        Glibc.close(listener)
        for fd in all { Glibc.close(fd) }
    }

    private var isVanished: Bool { lock.withLock { vanished } }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            guard let upstream = try? LoopbackSocket.connect(to: Int(upstreamPort)) else {
                Glibc.close(client)
                continue
            }
            lock.withLock { sockets += [client, upstream] }
            for (from, to) in [(client, upstream), (upstream, client)] {
                Thread { [self] in pump(from: from, to: to) }.start()
            }
        }
    }

    /// Copies bytes from one socket to the other until end of file; once vanished, reads and
    /// drops them (so the sender's kernel still acknowledges them, as a dead link would not,
    /// but the other side hears nothing) and never closes.
    private func pump(from: Int32, to: Int32) {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(from, $0.baseAddress, $0.count, 0) }
            guard count > 0 else {
                if !isVanished { Glibc.shutdown(to, Int32(SHUT_WR)) }
                return
            }
            if isVanished { continue }
            _ = buffer.withUnsafeBytes { send(to, $0.baseAddress, count, Int32(MSG_NOSIGNAL)) }
        }
    }
}
#endif
