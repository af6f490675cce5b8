import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import TokenKitTestSupport

/// The tests' one way to open raw loopback sockets: a listener's port takes connections, a
/// closed port is refused with the call named, and no socket outlives an exec.
@Suite("LoopbackSocket: raw sockets on 127.0.0.1")
struct LoopbackSocketTests {
    @Test("a listener's port takes a connection, and bytes sent arrive")
    func listenThenConnect() throws {
        let (listener, port) = try LoopbackSocket.listen(backlog: 4)
        defer { close(listener) }
        #expect(port > 0 && port < 65_536)
        let client = try LoopbackSocket.connect(to: port)
        defer { close(client) }
        let accepted = accept(listener, nil, nil)
        try #require(accepted >= 0)
        defer { close(accepted) }
        #expect(send(client, "ping", 4, Int32(MSG_NOSIGNAL)) == 4)
        var buffer = [UInt8](repeating: 0, count: 4)
        #expect(recv(accepted, &buffer, 4, Int32(MSG_WAITALL)) == 4)
        #expect(buffer == Array("ping".utf8))
    }

    @Test("a port nobody listens on is refused, naming the call and the reason")
    func refusedConnection() throws {
        let (listener, port) = try LoopbackSocket.listen(backlog: 1)
        close(listener)
        let error = #expect(throws: LoopbackSocket.Failed.self) { try LoopbackSocket.connect(to: port) }
        #expect(error?.description == "failed: connect to 127.0.0.1:\(port) (\(String(cString: strerror(ECONNREFUSED))))")
    }

    @Test("a connection that does not wait is returned while the handshake may still run")
    func nonWaitingConnection() throws {
        let (listener, port) = try LoopbackSocket.listen(backlog: 4)
        defer { close(listener) }
        let client = try LoopbackSocket.connect(to: port, waiting: false)
        defer { close(client) }
        #expect(fcntl(client, F_GETFL) & O_NONBLOCK != 0)
    }

    @Test("every socket is close-on-exec", arguments: [true, false])
    func closeOnExec(listening: Bool) throws {
        let (listener, port) = try LoopbackSocket.listen(backlog: 4)
        defer { close(listener) }
        let descriptor = listening ? listener : try LoopbackSocket.connect(to: port)
        defer { if !listening { close(descriptor) } }
        #expect(fcntl(descriptor, F_GETFD) & FD_CLOEXEC != 0)
    }
}
