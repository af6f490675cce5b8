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
/// - The body is read as it arrives and the request is cancelled as soon as it would exceed
///   the smaller of ``maxResponseBytes`` and the request's own cap (or a `Content-Length`
///   announces more): no more than the cap is ever buffered; ``AuthError/Code/network``.
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
/// collects each task's body up to its cap, cancelling the task the moment it would go over.
private final class ResponseCollector: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // @unchecked Sendable: `pending` is only touched under `lock`.
    private struct Pending {
        let continuation: CheckedContinuation<(HTTPURLResponse, [UInt8]), any Error>
        let limit: Int
        let host: String
        var body: [UInt8] = []
        var response: HTTPURLResponse?
        var tooLarge = false
    }

    private let lock = NSLock()
    private var pending: [Int: Pending] = [:]

    /// Runs one data task; resumes with the response and its body, or an ``AuthError``.
    func perform(_ request: URLRequest, in session: URLSession, limit: Int, host: String) async throws -> (HTTPURLResponse, [UInt8]) {
        let task = session.dataTask(with: request)
        let id = task.taskIdentifier
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                lock.withLock { pending[id] = Pending(continuation: continuation, limit: limit, host: host) }
                task.resume()
            }
        } onCancel: {
            task.cancel()
        }
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
        let allow: Bool = lock.withLock {
            guard var entry = pending[dataTask.taskIdentifier] else { return false }
            entry.response = response as? HTTPURLResponse
            if response.expectedContentLength > Int64(entry.limit) { entry.tooLarge = true }
            pending[dataTask.taskIdentifier] = entry
            return !entry.tooLarge
        }
        completionHandler(allow ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let overflow: Bool = lock.withLock {
            guard var entry = pending[dataTask.taskIdentifier], !entry.tooLarge else { return false }
            if data.count > entry.limit - entry.body.count {
                entry.tooLarge = true
                entry.body = []
            } else {
                entry.body.append(contentsOf: data)
            }
            pending[dataTask.taskIdentifier] = entry
            return entry.tooLarge
        }
        if overflow { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let entry = lock.withLock({ pending.removeValue(forKey: task.taskIdentifier) }) else { return }
        if entry.tooLarge {
            entry.continuation.resume(throwing: AuthError.network("response from \(entry.host) is larger than \(entry.limit) bytes"))
        } else if let error = error as? URLError {
            entry.continuation.resume(throwing: error.code == .cancelled
                ? AuthError.cancelled
                : AuthError.network("request to \(entry.host) failed (URLError \(error.code.rawValue))"))
        } else if let error {
            entry.continuation.resume(throwing: AuthError.network("request to \(entry.host) failed (\(type(of: error)))"))
        } else if let response = entry.response ?? (task.response as? HTTPURLResponse) {
            entry.continuation.resume(returning: (response, entry.body))
        } else {
            entry.continuation.resume(throwing: AuthError.network("request to \(entry.host) did not return an HTTP response"))
        }
    }
}
