#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
internal import TokenKitPrimitives

/// The HTTP listener of a native app's sign-in (RFC 8252 §7.3): bound to `127.0.0.1` only, on
/// an ephemeral port unless one is given. It serves two addresses:
///
/// - the one-time **start URL** `http://127.0.0.1:PORT/start/RANDOM` (``startURL(redirectingTo:)``):
///   the browser is given this, never the authorization URL, so that `state`, the PKCE
///   challenge and the nonce appear in no process's argv or environment. Its first request is
///   redirected (302) to the authorization URL; a second request is answered 410 and ends the
///   wait with ``AuthError/Code/startURLReused``: someone else opened it (a local user who read
///   the browser's command line), and the sign-in they may have started is not completed.
/// - the **callback** (`redirect_uri`, default path `/callback`): each `GET` carrying `code` or
///   `error` is shown to a judge (``CallbackVerdict``): accepted (success page, the wait ends),
///   ignored (400, the wait goes on: a forged callback with a wrong or missing `state` cannot
///   abort the sign-in), or refused (failure page, the wait ends with the error).
///
/// Guarantees: connections are served concurrently (``LoopbackServeLoop``); each must deliver
/// its request within 5 s of connecting, in total; anything else (another path, a favicon,
/// a bad request) gets 404/400 and the listener keeps waiting; the wait ends at its timeout
/// whatever local clients do; the socket is closed when the wait ends and on cancellation.
/// It does not authenticate the browser: any local process can call the port; `state`, PKCE
/// and the one-time start URL are what make a forged or stolen sign-in useless.
public final class LoopbackRedirectListener: @unchecked Sendable {
    // @unchecked: `fd` and `start` are read and written only while `lock` is held.
    /// `http://127.0.0.1:<port><path>`: the `redirect_uri` to send.
    public let redirectURI: URL
    /// The port actually bound.
    public let port: UInt16
    private let path: String
    private let lock = NSLock()
    private var fd: Int32
    private var start: (token: String, destination: String)?

    /// Binds `127.0.0.1:port` (0 = ephemeral) and listens; throws ``AuthError/Code/network``
    /// naming why (e.g. the port is taken).
    public init(port: UInt16 = 0, path: String = "/callback") throws(AuthError) {
        precondition(path.hasPrefix("/") && !path.hasPrefix("/start/"), "the callback path must start with / and not be under /start/")
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketFD >= 0 else { throw .network("cannot create the loopback listener socket (errno \(errno))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        let flags = fcntl(socketFD, F_GETFL)
        guard bound == 0, listen(socketFD, 64) == 0, flags >= 0, fcntl(socketFD, F_SETFL, flags | O_NONBLOCK) == 0 else {
            let code = errno
            close(socketFD)
            throw .network("cannot listen on 127.0.0.1:\(port) for the sign-in redirect (\(String(cString: strerror(code))))")
        }
        _ = fcntl(socketFD, F_SETFD, FD_CLOEXEC)
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
        lock.withLock {
            if fd >= 0 {
                close(fd)
                fd = -1
            }
        }
    }

    /// Makes the one-time start URL, `http://127.0.0.1:PORT/start/RANDOM` (32 random bytes,
    /// base64url), whose first request is redirected to `destination`. Call it once, before
    /// ``waitForCallback(timeout:judge:)``. Throws ``AuthError/Code/invalidConfiguration`` for a
    /// destination that cannot go in a `Location` header, or when the random generator fails.
    public func startURL(redirectingTo destination: URL) throws(AuthError) -> URL {
        let location = destination.absoluteString
        guard location.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw .invalidConfiguration("the authorization URL holds characters that cannot be redirected to")
        }
        let token = try SignInRandom.token()
        lock.withLock { start = (token, location) }
        guard let url = URL(string: "http://127.0.0.1:\(port)/start/\(token)") else {
            throw .invalidConfiguration("cannot build the start URL")
        }
        return url
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
        /// Names that appeared more than once.
        public let duplicated: Set<String>

        /// The value of the parameter named exactly `name` (byte for byte), if present.
        public func value(of name: String) -> String? {
            parameters.first { $0.key.isByteIdentical(to: name) }?.value
        }
    }

    /// Serves the start URL and the callback until `judge` accepts or refuses a callback (see
    /// ``CallbackVerdict``), the start URL is requested twice (``AuthError/Code/startURLReused``),
    /// `timeout` passes (``AuthError/Code/signInExpired``) or the task is cancelled
    /// (``AuthError/Code/cancelled``). Returns the accepted callback; closes the socket.
    public func waitForCallback(
        timeout: Duration, judge: @escaping @Sendable (Callback) -> CallbackVerdict
    ) async throws(AuthError) -> Callback {
        let deadline = ContinuousClock.now + timeout
        let cancelled = CancelFlag()
        let result: Result<Callback, AuthError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let thread = Thread { [self] in
                    continuation.resume(returning: self.serve(deadline: deadline, cancelled: cancelled, judge: judge))
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

    private func serve(
        deadline: ContinuousClock.Instant, cancelled: CancelFlag, judge: @escaping (Callback) -> CallbackVerdict
    ) -> Result<Callback, AuthError> {
        let (listening, start) = lock.withLock { (fd, self.start) }
        guard listening >= 0 else { return .failure(.cancelled) }
        var startServed = false
        var loop = LoopbackServeLoop(listening: listening, deadline: deadline, cancelled: cancelled) { [path] request, client in
            switch request {
            case .failure(let failure):
                (failure == .notFound ? LoopbackResponse.notFound : .badRequest).deliver(to: client)
                return .keepServing
            case .success(let request) where request.path.hasPrefix("/start/"):
                guard let start, ConstantTime.equal(String(request.path.dropFirst("/start/".count)), start.token) else {
                    LoopbackResponse.notFound.deliver(to: client)
                    return .keepServing
                }
                if startServed {
                    LoopbackResponse.startUsed.deliver(to: client)
                    return .finish(.failure(.init(
                        code: .startURLReused,
                        message: "the sign-in link was opened a second time: another program may have read it and started this sign-in, so it was stopped (nothing stored; sign in again)")))
                }
                startServed = true
                LoopbackResponse.redirect(to: start.destination).deliver(to: client)
                return .keepServing
            case .success(let request) where request.path.isByteIdentical(to: path):
                guard let (parameters, duplicated) = QueryDecoding.decode(request.query) else {
                    LoopbackResponse.badRequest.deliver(to: client)
                    return .keepServing
                }
                let callback = Callback(parameters: parameters, duplicated: duplicated)
                guard callback.value(of: "code") != nil || callback.value(of: "error") != nil else {
                    LoopbackResponse.badRequest.deliver(to: client)
                    return .keepServing
                }
                switch judge(callback).outcome {
                case .accept:
                    LoopbackResponse.signedIn.deliver(to: client)
                    return .finish(.success(callback))
                case .ignore(let reason):
                    LoopbackResponse.ignored(reason).deliver(to: client)
                    return .keepServing
                case .refuse(let error):
                    LoopbackResponse.failed(error.message).deliver(to: client)
                    return .finish(.failure(error))
                }
            case .success:
                LoopbackResponse.notFound.deliver(to: client)
                return .keepServing
            }
        }
        return loop.run()
    }
}
