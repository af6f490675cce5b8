import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The tests' one way to open a raw TCP socket on 127.0.0.1: a listener on a free port, or a
/// connection to a port. Every socket is close-on-exec (a child process of a test never holds
/// one open). The caller owns the descriptor and closes it.
public enum LoopbackSocket {
    /// Why a socket could not be set up: the call that failed and `errno`'s text.
    public struct Failed: Error, CustomStringConvertible {
        /// The call that failed.
        public let what: String
        /// "failed: `what`".
        public var description: String { "failed: \(what)" }

        init(_ what: String) { self.what = "\(what) (\(String(cString: strerror(errno))))" }
    }

    /// A socket listening on 127.0.0.1 on a port the kernel chose, with room for `backlog`
    /// pending connections; `reuseAddress` sets `SO_REUSEADDR`.
    public static func listen(backlog: Int32, reuseAddress: Bool = false) throws -> (descriptor: Int32, port: Int) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw Failed("socket()") }
        if reuseAddress {
            var on: Int32 = 1
            setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, Glibc.listen(descriptor, backlog) == 0 else {
            let failure = Failed("bind/listen on 127.0.0.1")
            Glibc.close(descriptor)
            throw failure
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else {
            let failure = Failed("getsockname")
            Glibc.close(descriptor)
            throw failure
        }
        return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// A socket connected to 127.0.0.1:`port`. With `waiting: false` the socket is
    /// non-blocking and returned while the handshake may still be in progress (a connection
    /// the server has not accepted yet).
    public static func connect(to port: Int, waiting: Bool = true) throws -> Int32 {
        let flags = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | (waiting ? 0 : Int32(SOCK_NONBLOCK.rawValue))
        let descriptor = socket(AF_INET, flags, 0)
        guard descriptor >= 0 else { throw Failed("socket()") }
        var address = loopback(port: UInt16(clamping: port))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 || (!waiting && errno == EINPROGRESS) else {
            let failure = Failed("connect to 127.0.0.1:\(port)")
            Glibc.close(descriptor)
            throw failure
        }
        return descriptor
    }

    private static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
        address.sin_port = in_port_t(port.bigEndian)
        return address
    }
}
