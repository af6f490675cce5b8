#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The loopback listener's event loop: one thread, `poll(2)` over the listening socket and
/// every open connection, so no client can hold up another.
///
/// Guarantees:
/// - Connections are served concurrently; each must deliver a complete request head within
///   ``requestDeadline`` of its acceptance (a total, not per read: a client sending a byte
///   every few seconds is cut off at 5 s) and at most ``LoopbackRequest/maximumHeadBytes``.
/// - At most ``maximumConnections`` are open at once; a new one beyond that closes the
///   oldest (the nearest to its own deadline), so a flood cannot keep the port from accepting.
/// - The loop ends at the overall deadline, whatever the clients do, and within 200 ms of
///   cancellation.
struct LoopbackServeLoop {
    /// How long a connection has to deliver its request.
    static let requestDeadline: Duration = .seconds(5)
    /// The most connections open at once.
    static let maximumConnections = 128

    /// What a complete request leads to: keep serving, or end the wait with a result.
    enum Step {
        case keepServing
        case finish(Result<LoopbackRedirectListener.Callback, AuthError>)
    }

    private struct Connection {
        let fd: Int32
        let deadline: ContinuousClock.Instant
        var head: [UInt8] = []
    }

    let listening: Int32
    let deadline: ContinuousClock.Instant
    let cancelled: CancelFlag
    /// Answers one complete request (writing the response to the descriptor) and says what next.
    let handle: (Result<LoopbackRequest, LoopbackRequest.Failure>, Int32) -> Step

    private var connections: [Connection] = []

    init(
        listening: Int32, deadline: ContinuousClock.Instant, cancelled: CancelFlag,
        handle: @escaping (Result<LoopbackRequest, LoopbackRequest.Failure>, Int32) -> Step
    ) {
        self.listening = listening
        self.deadline = deadline
        self.cancelled = cancelled
        self.handle = handle
    }

    /// Serves until a request finishes the wait, the deadline passes or the flag is set.
    mutating func run() -> Result<LoopbackRedirectListener.Callback, AuthError> {
        defer { for connection in connections { close(connection.fd) } }
        while true {
            if cancelled.isSet { return .failure(.cancelled) }
            let now = ContinuousClock.now
            if now >= deadline {
                return .failure(.init(code: .signInExpired, message: "sign-in timed out: the browser did not come back to the app"))
            }
            expire(now: now)
            var pollers = [pollfd(fd: listening, events: Int16(POLLIN), revents: 0)]
            pollers += connections.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
            let nearest = connections.map(\.deadline).min().map { min($0, deadline) } ?? deadline
            let wait = Int32(min(200, max(1, (nearest - now).wholeMilliseconds)))
            let ready = poll(&pollers, nfds_t(pollers.count), wait)
            guard ready > 0 else { continue }
            // Connections first (their descriptors are in `pollers` in `connections` order),
            // then new ones: a finished request ends the loop before more are accepted.
            var index = 0
            var position = 1
            while index < connections.count {
                let events = pollers[position].revents
                position += 1
                guard events != 0 else {
                    index += 1
                    continue
                }
                switch read(at: index) {
                case .open:
                    index += 1
                case .closed:
                    close(connections[index].fd)
                    connections.remove(at: index)
                case .finished(let result):
                    return result
                }
            }
            if pollers[0].revents != 0 { acceptPending() }
        }
    }

    private enum ReadOutcome {
        case open, closed
        case finished(Result<LoopbackRedirectListener.Callback, AuthError>)
    }

    /// Reads what connection `index` has sent; serves it once its head is complete.
    private mutating func read(at index: Int) -> ReadOutcome {
        var chunk = [UInt8](repeating: 0, count: 4096)
        let fd = connections[index].fd
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        if count < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return .open }
        guard count > 0 else { return .closed }
        connections[index].head += chunk[0..<count]
        let head = connections[index].head
        if LoopbackRequest.isComplete(head) {
            switch handle(LoopbackRequest.parse(head), fd) {
            case .keepServing: return .closed
            case .finish(let result): return .finished(result)
            }
        }
        guard head.count < LoopbackRequest.maximumHeadBytes else {
            _ = handle(.failure(.badRequest), fd)
            return .closed
        }
        return .open
    }

    /// Accepts every connection waiting in the backlog (non-blocking), evicting the oldest
    /// beyond ``maximumConnections``.
    private mutating func acceptPending() {
        while true {
            let client = accept(listening, nil, nil)
            guard client >= 0 else { return }
            let flags = fcntl(client, F_GETFL)
            _ = fcntl(client, F_SETFL, (flags < 0 ? 0 : flags) | O_NONBLOCK)
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            if connections.count >= Self.maximumConnections {
                close(connections.removeFirst().fd)
            }
            connections.append(Connection(fd: client, deadline: ContinuousClock.now + Self.requestDeadline))
        }
    }

    /// Closes the connections whose request did not arrive in time (answered 408).
    private mutating func expire(now: ContinuousClock.Instant) {
        connections.removeAll { connection in
            guard connection.deadline <= now else { return false }
            if !connection.head.isEmpty { LoopbackResponse.timedOut.deliver(to: connection.fd) }
            close(connection.fd)
            return true
        }
    }
}

/// A flag set from a cancellation handler and read by the listener thread.
final class CancelFlag: @unchecked Sendable {
    // @unchecked: `value` is read and written only while `lock` is held.
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
