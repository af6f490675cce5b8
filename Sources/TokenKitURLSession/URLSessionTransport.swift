import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TokenKitAuth

/// An ``HTTPTransport`` over Foundation's `URLSession`.
///
/// Guarantees:
/// - Redirects are never followed: a 3xx answer is returned as it is, so a bearer token or
///   client secret is sent only to the URL the request names.
/// - The session is ephemeral: no cookies, no cache, no stored credentials.
/// - Bodies larger than ``maxResponseBytes`` are refused with ``AuthError/Code/network``.
/// - Transport failures become ``AuthError/Code/network`` naming the host and the `URLError`
///   code, never headers, query strings or bodies.
///
/// It does not retry, and the size limit is checked after the body arrived (URLSession
/// buffers it in memory first).
public final class URLSessionTransport: HTTPTransport {
    /// The largest response body returned.
    public let maxResponseBytes: Int
    private let session: URLSession

    /// A transport over its own ephemeral session that refuses redirects.
    ///
    /// - Parameters:
    ///   - timeout: Seconds a request may stay idle before it fails (default 30).
    ///   - maxResponseBytes: The largest response body accepted (default 4 MiB).
    public init(timeout: TimeInterval = 30, maxResponseBytes: Int = 4 * 1024 * 1024) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        configuration.urlCredentialStorage = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: configuration, delegate: RedirectRefusingDelegate(), delegateQueue: nil)
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
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: urlRequest)
        } catch let error as URLError {
            if error.code == .cancelled, Task.isCancelled { throw AuthError.cancelled }
            throw AuthError.network("request to \(host) failed (URLError \(error.code.rawValue))")
        } catch is CancellationError {
            throw AuthError.cancelled
        } catch {
            throw AuthError.network("request to \(host) failed (\(type(of: error)))")
        }
        guard let http = response as? HTTPURLResponse else {
            throw AuthError.network("request to \(host) did not return an HTTP response")
        }
        guard data.count <= maxResponseBytes else {
            throw AuthError.network("response from \(host) is larger than \(maxResponseBytes) bytes")
        }
        var headers: [HTTPHeader] = []
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String {
                headers.append(HTTPHeader(name: name, value: value))
            }
        }
        return HTTPTransportResponse(status: http.statusCode, headers: headers, body: Array(data))
    }
}

/// Answers every redirect with "don't follow", so the 3xx response itself is returned.
private final class RedirectRefusingDelegate: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
