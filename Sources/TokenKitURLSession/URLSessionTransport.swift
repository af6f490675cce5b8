import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TokenKitRemote

/// An ``HTTPTransport`` over Foundation's `URLSession`.
///
/// Guarantees:
/// - Redirects are never followed: a 3xx answer is returned as it is, so a bearer token or
///   client secret is sent only to the URL the request names.
/// - The session is ephemeral: no cookies, no cache, no stored credentials.
/// - Each request ends within its ``HTTPTransportRequest/timeout`` (a total deadline, body
///   included), else it is cancelled and ``AuthError/Code/network`` is thrown.
/// - The body is read as it arrives; as soon as it would exceed the smaller of
///   ``maxResponseBytes`` and the request's own cap (or a `Content-Length` announces more),
///   the call throws ``AuthError/Code/network`` at once, every later chunk is dropped unread
///   into memory, and the task is cancelled: no more than the cap is ever buffered, with or
///   without a `Content-Length` (an endless chunked body stays at a few MB of RSS).
/// - On Linux, swift-corelibs-foundation may go on reading (and this transport discarding)
///   for a moment after the cancel, until its work queue processes it; the caller does not
///   wait for that.
/// - Transport failures become ``AuthError/Code/network`` naming the host and the `URLError`
///   code, never headers, query strings or bodies.
///
/// It does not retry.
public final class URLSessionTransport: HTTPTransport {
    /// The largest response body returned.
    public let maxResponseBytes: Int
    private let session: URLSession
    private let collector: ResponseCollector

    /// A transport over its own ephemeral session that refuses redirects.
    ///
    /// - Parameters:
    ///   - timeout: How long a request may stay idle before it fails (default 30 s); the total
    ///     deadline is each request's ``HTTPTransportRequest/timeout``.
    ///   - maxResponseBytes: The largest response body accepted (default 4 MiB).
    public init(timeout: Duration = .seconds(30), maxResponseBytes: Int = 4 * 1024 * 1024) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout.clampedToZero.seconds
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        configuration.urlCredentialStorage = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let collector = ResponseCollector()
        session = URLSession(configuration: configuration, delegate: collector, delegateQueue: nil)
        self.collector = collector
        self.maxResponseBytes = maxResponseBytes
    }

    deinit { session.finishTasksAndInvalidate() }

    /// Sends `request` once and returns the response.
    public func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        for header in request.headers { urlRequest.addValue(header.value, forHTTPHeaderField: header.name) }
        if !request.body.isEmpty { urlRequest.httpBody = Data(request.body) }
        let host = request.url.host ?? "<no host>"
        let limit = max(0, min(maxResponseBytes, request.maxResponseBytes ?? maxResponseBytes))
        let session = self.session
        let collector = self.collector
        let prepared = urlRequest
        let (http, body) = try await TransportDeadline.run(timeout: request.timeout, host: host) {
            try await collector.perform(prepared, in: session, limit: limit, host: host)
        }
        var headers: [HTTPHeader] = []
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String {
                headers.append(HTTPHeader(name: name, value: value))
            }
        }
        return HTTPTransportResponse(status: http.statusCode, headers: headers, body: body)
    }
}

/// The session delegate: refuses every redirect (so the 3xx response itself is returned) and
/// collects each task's body up to its cap.
///
/// On Linux (swift-corelibs-foundation over libcurl) three things shape it:
/// - libcurl's reads are handed to the delegate queue asynchronously, one queued operation
///   per chunk, so a delegate method that blocks lets the whole body pile up in memory;
/// - `URLSessionTask.cancel()` waits (`sync`) for the session's work queue, which a server
///   streaming at full speed keeps busy for seconds; called on the delegate queue it blocked
///   the queue while 1–2 GB of chunks queued up behind it (the 2.3 GB RSS of issue 23);
/// - a `.cancel` disposition for a response is ignored.
/// So the cap and every other early end resume the caller at once, drop every later chunk
/// of that task without keeping it, and cancel the task on a queue of its own: the delegate
/// queue is never blocked and the caller never waits for the cancellation to land. Tasks are
/// also made and resumed on that queue, never on the cooperative pool.
private final class ResponseCollector: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // @unchecked Sendable: `pending` (and each ticket) is only touched under `lock`.
    private struct Pending {
        /// `nil` once the caller was answered (the task may still deliver chunks: dropped).
        var continuation: CheckedContinuation<(HTTPURLResponse, [UInt8]), any Error>?
        let limit: Int
        let host: String
        var body: [UInt8] = []
        var response: HTTPURLResponse?
    }

    private let lock = NSLock()
    private var pending: [Int: Pending] = [:]
    /// Where tasks are made, resumed and cancelled, never on the cooperative pool: each of
    /// these waits (`sync`) for swift-corelibs-foundation's work queue, which one session
    /// reading a fast body keeps busy for seconds and which every session of the process
    /// shares; on the pool's few threads that wait froze every task of the process.
    private let control = DispatchQueue(label: "TokenKitURLSession.control", attributes: .concurrent)

    /// One call of ``perform(_:in:limit:host:)``: its task once made, and whether the caller
    /// was cancelled first. Only touched under the collector's `lock`.
    private final class Ticket: @unchecked Sendable {
        var task: URLSessionTask?
        var cancelled = false
    }

    /// Runs one data task; resumes with the response and its body, or an ``AuthError``.
    func perform(_ request: URLRequest, in session: URLSession, limit: Int, host: String) async throws -> (HTTPURLResponse, [UInt8]) {
        let ticket = Ticket()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                control.async { [self] in
                    let task = session.dataTask(with: request)
                    let start: Bool = lock.withLock {
                        guard !ticket.cancelled else { return false }
                        ticket.task = task
                        pending[task.taskIdentifier] = Pending(continuation: continuation, limit: limit, host: host)
                        return true
                    }
                    if start { task.resume() } else { continuation.resume(throwing: AuthError.cancelled) }
                }
            }
        } onCancel: {
            let task: URLSessionTask? = lock.withLock {
                ticket.cancelled = true
                return ticket.task
            }
            if let task { finish(task, throwing: AuthError.cancelled) }
        }
    }

    /// Answers the caller with `error` now (if not answered yet), forgets the body, and cancels
    /// `task` off the delegate queue.
    private func finish(_ task: URLSessionTask, throwing error: AuthError) {
        let waiting: CheckedContinuation<(HTTPURLResponse, [UInt8]), any Error>? = lock.withLock {
            guard var entry = pending[task.taskIdentifier], let continuation = entry.continuation else { return nil }
            entry.continuation = nil
            entry.body = []
            pending[task.taskIdentifier] = entry
            return continuation
        }
        guard let waiting else { return }
        waiting.resume(throwing: error)
        control.async { task.cancel() }
    }

    private func tooLarge(_ entry: Pending) -> AuthError {
        AuthError.network("response from \(entry.host) is larger than \(entry.limit) bytes")
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let refused: AuthError? = lock.withLock {
            guard var entry = pending[dataTask.taskIdentifier] else { return nil }
            entry.response = response as? HTTPURLResponse
            pending[dataTask.taskIdentifier] = entry
            return response.expectedContentLength > Int64(entry.limit) ? tooLarge(entry) : nil
        }
        if let refused { finish(dataTask, throwing: refused) }
        completionHandler(refused == nil ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let overflow: AuthError? = lock.withLock {
            guard var entry = pending[dataTask.taskIdentifier], entry.continuation != nil else { return nil }
            guard data.count <= entry.limit - entry.body.count else { return tooLarge(entry) }
            entry.body.append(contentsOf: data)
            pending[dataTask.taskIdentifier] = entry
            return nil
        }
        if let overflow { finish(dataTask, throwing: overflow) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let entry = lock.withLock({ pending.removeValue(forKey: task.taskIdentifier) }),
              let continuation = entry.continuation
        else { return }
        if let error = error as? URLError {
            continuation.resume(throwing: error.code == .cancelled
                ? AuthError.cancelled
                : AuthError.network("request to \(entry.host) failed (URLError \(error.code.rawValue))"))
        } else if let error {
            continuation.resume(throwing: AuthError.network("request to \(entry.host) failed (\(type(of: error)))"))
        } else if let response = entry.response ?? (task.response as? HTTPURLResponse) {
            continuation.resume(returning: (response, entry.body))
        } else {
            continuation.resume(throwing: AuthError.network("request to \(entry.host) did not return an HTTP response"))
        }
    }
}
