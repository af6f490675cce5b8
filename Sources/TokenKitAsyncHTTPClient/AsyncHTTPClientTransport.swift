import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import TokenKitRemote

/// An ``HTTPTransport`` over an AsyncHTTPClient `HTTPClient`.
///
/// Guarantees:
/// - One request per ``send(_:)``, bounded in total (body included) by the smaller of
///   ``timeout`` and the request's ``HTTPTransportRequest/timeout``; the body is collected up
///   to the smaller of ``maxResponseBytes`` and the request's cap, reading stops there, and
///   larger bodies (or a larger `Content-Length`) are refused with ``AuthError/Code/network``.
/// - If the client followed a redirect, the response is refused with
///   ``AuthError/Code/network``. Configure the client with `redirectConfiguration: .disallow`
///   so that credentials go only to the named URL: this check reports a misconfigured
///   client, it cannot un-send the redirected request.
/// - Transport failures become ``AuthError/Code/network`` naming the host and the error
///   kind, never headers, query strings or bodies.
///
/// It does not own the client: the caller shuts it down.
public struct AsyncHTTPClientTransport: HTTPTransport {
    /// The longest a request (including reading the body) may take; a request's own shorter
    /// ``HTTPTransportRequest/timeout`` wins.
    public let timeout: Duration
    /// The largest response body returned.
    public let maxResponseBytes: Int
    private let client: HTTPClient

    /// A transport over `client`.
    public init(client: HTTPClient, timeout: Duration = .seconds(30), maxResponseBytes: Int = 4 * 1024 * 1024) {
        self.client = client
        self.timeout = timeout
        self.maxResponseBytes = maxResponseBytes
    }

    /// Sends `request` once and returns the response.
    public func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse {
        let host = request.url.host ?? "<no host>"
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = HTTPMethod(rawValue: request.method)
        for header in request.headers { outgoing.headers.add(name: header.name, value: header.value) }
        if !request.body.isEmpty { outgoing.body = .bytes(ByteBuffer(bytes: request.body)) }
        let total = min(timeout, request.timeout)
        let limit = max(0, min(maxResponseBytes, request.maxResponseBytes ?? maxResponseBytes))
        let client = self.client
        let prepared = outgoing
        let deadline = NIODeadline.now() + .nanoseconds(total.wholeNanoseconds)
        do {
            // AsyncHTTPClient's deadline covers the response head; the race below also bounds
            // reading the body (a server sending one byte a second is cut off at the deadline).
            return try await TransportDeadline.run(timeout: total, host: host) {
                let response = try await client.execute(prepared, deadline: deadline)
                guard response.history.count <= 1 else {
                    throw AuthError.network("request to \(host) was redirected; configure the HTTPClient with redirectConfiguration: .disallow")
                }
                if let announced = response.headers.first(name: "content-length").flatMap({ Int($0) }), announced > limit {
                    throw AuthError.network("response from \(host) is larger than \(limit) bytes")
                }
                let body: ByteBuffer
                do {
                    body = try await response.body.collect(upTo: limit)
                } catch is NIOTooManyBytesError {
                    throw AuthError.network("response from \(host) is larger than \(limit) bytes")
                }
                return HTTPTransportResponse(
                    status: Int(response.status.code),
                    headers: response.headers.map { HTTPHeader(name: $0.name, value: $0.value) },
                    body: Array(buffer: body))
            }
        } catch let error as AuthError {
            throw error
        } catch is CancellationError {
            throw AuthError.cancelled
        } catch let error as HTTPClientError where error == .deadlineExceeded {
            // AsyncHTTPClient's own deadline fired before the race's timer: the same error.
            throw TransportDeadline.exceeded(host: host, timeout: total)
        } catch let error as HTTPClientError {
            throw AuthError.network("request to \(host) failed (\(error.shortDescription))")
        } catch {
            throw AuthError.network("request to \(host) failed (\(type(of: error)))")
        }
    }
}
