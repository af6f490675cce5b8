#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
internal import TokenKitPrimitives

/// The one-shot HTTP listener that receives the authorization response of a native app
/// (RFC 8252 §7.3): bound to `127.0.0.1` only, on an ephemeral port unless one is given.
///
/// Guarantees:
/// - Only `GET <path>?…` requests that carry `code` or `error` end the wait; anything else
///   (another path, a favicon, a stray connection, a bad request) gets a 404/400 and the
///   listener keeps waiting. Requests are read with a 16 KiB cap and a 5 s read timeout each.
/// - The browser gets a small HTML page saying whether sign-in worked (no token in it).
/// - The socket is closed after the first complete callback, on timeout and on cancellation.
/// It does not authenticate the browser: any local process can call the port; `state` and
/// PKCE are what make a forged callback useless.
public final class LoopbackRedirectListener: @unchecked Sendable {
    /// `http://127.0.0.1:<port><path>`: the `redirect_uri` to send.
    public let redirectURI: URL
    /// The port actually bound.
    public let port: UInt16
    private let path: String
    private let lock = NSLock()
    private var fd: Int32

    /// Binds `127.0.0.1:port` (0 = ephemeral) and listens; throws ``AuthError/Code/network``
    /// naming why (e.g. the port is taken).
    public init(port: UInt16 = 0, path: String = "/callback") throws(AuthError) {
        precondition(path.hasPrefix("/"), "the callback path must start with /")
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketFD >= 0 else { throw .network("cannot create the loopback listener socket (errno \(errno))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(socketFD, 16) == 0 else {
            let code = errno
            close(socketFD)
            throw .network("cannot listen on 127.0.0.1:\(port) for the sign-in redirect (\(String(cString: strerror(code))))")
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketFD, $0, &length) }
        }
        self.fd = socketFD
        self.port = UInt16(bigEndian: actual.sin_port)
        self.path = path
        // The port and path are ours: this URL always parses.
        self.redirectURI = URL(string: "http://127.0.0.1:\(self.port)\(path)") ?? URL(fileURLWithPath: "/")
    }

    deinit { closeSocket() }

    /// Closes the listening socket (idempotent).
    public func closeSocket() {
        lock.lock()
        defer { lock.unlock() }
        if fd >= 0 {
            close(fd)
            fd = -1
        }
    }

    /// What the browser sent to the callback: the query parameters.
    ///
    /// Read parameters with ``value(of:)``, which matches names byte for byte. In the
    /// ``parameters`` dictionary two names that differ only by Unicode normalisation share
    /// one entry; such names are counted as repeated (``duplicated``), so the sign-in refuses
    /// the response rather than pick one.
    public struct Callback: Sendable {
        /// Query parameters (a repeated name is reported as ``duplicated``).
        public let parameters: [String: String]
        /// Names that appeared more than once (such a response is refused).
        public let duplicated: Set<String>

        /// The value of the parameter named exactly `name` (byte for byte), if present.
        public func value(of name: String) -> String? {
            parameters.first { $0.key.isByteIdentical(to: name) }?.value
        }
    }

    /// Waits for the callback, then answers the browser with the page `judge` chooses:
    /// `judge` returns `nil` for success, or the error that the page (and this call) reports.
    /// Throws ``AuthError/Code/signInExpired`` after `timeout`, ``AuthError/Code/cancelled``
    /// when the task is cancelled.
    public func waitForCallback(
        timeout: Duration, judge: @escaping @Sendable (Callback) -> AuthError?
    ) async throws(AuthError) -> Callback {
        let deadline = ContinuousClock.now + timeout
        let cancelled = CancelFlag()
        let result: Result<Callback, AuthError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let thread = Thread { [self] in
                    continuation.resume(returning: self.acceptLoop(deadline: deadline, cancelled: cancelled, judge: judge))
                }
                thread.name = "tokenkit-loopback-redirect"
                thread.start()
            }
        } onCancel: {
            cancelled.set()
        }
        closeSocket()
        return try result.get()
    }

    private func acceptLoop(
        deadline: ContinuousClock.Instant, cancelled: CancelFlag, judge: (Callback) -> AuthError?
    ) -> Result<Callback, AuthError> {
        while true {
            if cancelled.isSet { return .failure(.cancelled) }
            let remaining = deadline - ContinuousClock.now
            if remaining <= .zero {
                return .failure(.init(code: .signInExpired, message: "sign-in timed out: the browser did not come back to the app"))
            }
            lock.lock()
            let listening = fd
            lock.unlock()
            guard listening >= 0 else { return .failure(.cancelled) }
            var poller = pollfd(fd: listening, events: Int16(POLLIN), revents: 0)
            let slice = Int32(min(200, max(1, remaining.wholeMilliseconds)))
            let ready = poll(&poller, 1, slice)
            guard ready > 0 else { continue }
            let client = accept(listening, nil, nil)
            guard client >= 0 else { continue }
            defer { close(client) }
            switch readRequest(client) {
            case .none:
                continue
            case .some(.failure(let failure)):
                respond(client, status: failure.status, title: failure == .notFound ? "Not found" : "Bad request",
                        text: "This address only receives the sign-in response.")
            case .some(.success(let callback)):
                if let error = judge(callback) {
                    respond(client, status: 400, title: "Sign-in failed", text: "Sign-in failed: \(error.message). You can close this window.")
                    return .failure(error)
                }
                respond(client, status: 200, title: "Signed in", text: "You are signed in. You can close this window and return to the application.")
                return .success(callback)
            }
        }
    }

    /// Reads one request head; `nil` for a connection that sent nothing usable in time.
    private func readRequest(_ client: Int32) -> Result<Callback, ReadFailure>? {
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 16 * 1024 {
            let count = chunk.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            bytes += chunk[0..<count]
            if Self.hasHeaderEnd(bytes) { break }
        }
        guard let lineEnd = bytes.firstIndex(of: 13) ?? bytes.firstIndex(of: 10) else { return bytes.isEmpty ? nil : .failure(.badRequest) }
        guard let line = String(validating: bytes[..<lineEnd], as: UTF8.self) else { return .failure(.badRequest) }
        let parts = line.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[2].hasPrefix("HTTP/") else { return .failure(.badRequest) }
        guard String(parts[0]).isByteIdentical(to: "GET") else { return .failure(.badRequest) }
        let target = parts[1]
        let pathPart = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        guard let requested = pathPart.first, String(requested).isByteIdentical(to: path) else { return .failure(.notFound) }
        let query = pathPart.count > 1 ? String(pathPart[1]) : ""
        guard let (parameters, duplicated) = QueryDecoding.decode(query) else { return .failure(.badRequest) }
        let callback = Callback(parameters: parameters, duplicated: duplicated)
        guard callback.value(of: "code") != nil || callback.value(of: "error") != nil else { return .failure(.badRequest) }
        return .success(callback)
    }

    private enum ReadFailure: Error {
        case badRequest, notFound
        var status: Int { self == .notFound ? 404 : 400 }
    }

    private func respond(_ client: Int32, status: Int, title: String, text: String) {
        let body = """
            <!DOCTYPE html><html><head><meta charset="utf-8"><title>\(Self.escape(title))</title></head>\
            <body><h1>\(Self.escape(title))</h1><p>\(Self.escape(text))</p></body></html>

            """
        let reason = status == 200 ? "OK" : status == 404 ? "Not Found" : "Bad Request"
        let head = "HTTP/1.1 \(status) \(reason)\r\nContent-Type: text/html; charset=utf-8\r\n"
            + "Content-Length: \(body.utf8.count)\r\nCache-Control: no-store\r\nReferrer-Policy: no-referrer\r\n"
            + "Connection: close\r\n\r\n"
        let bytes = Array((head + body).utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { return }
            sent += n
        }
    }

    static func hasHeaderEnd(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 4 else { return false }
        for i in 0...(bytes.count - 4) where bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 {
            return true
        }
        return false
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}

/// A flag set from a cancellation handler and read by the listener thread.
final class CancelFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.lock(); value = true; lock.unlock() }
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
}

/// Decodes an `application/x-www-form-urlencoded` query (`+` is a space, `%XX` a byte).
enum QueryDecoding {
    /// The parameters and the names seen more than once; `nil` for bad escapes or non-UTF-8.
    static func decode(_ query: String) -> (parameters: [String: String], duplicated: Set<String>)? {
        var parameters: [String: String] = [:]
        var duplicated: Set<String> = []
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let halves = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = unescape(halves[0]), let value = unescape(halves.count > 1 ? halves[1] : "") else { return nil }
            if parameters[name] != nil { duplicated.insert(name) }
            parameters[name] = value
        }
        return (parameters, duplicated)
    }

    static func unescape(_ text: Substring) -> String? {
        var out: [UInt8] = []
        var bytes = text.utf8.makeIterator()
        while let byte = bytes.next() {
            switch byte {
            case UInt8(ascii: "+"): out.append(0x20)
            case UInt8(ascii: "%"):
                guard let high = bytes.next().flatMap(hex), let low = bytes.next().flatMap(hex) else { return nil }
                out.append(high << 4 | low)
            default: out.append(byte)
            }
        }
        return String(validating: out, as: UTF8.self)
    }

    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x37
        case 0x61...0x66: byte - 0x57
        default: nil
        }
    }
}
