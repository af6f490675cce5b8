import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import TokenKitAuth

/// An ``HTTPTransport`` over an AsyncHTTPClient `HTTPClient`.
///
/// Guarantees:
/// - One request per ``send(_:)``, bounded by ``timeout``; the body is collected up to
///   ``maxResponseBytes`` and larger bodies are refused with ``AuthError/Code/network``.
/// - If the client followed a redirect, the response is refused with
///   ``AuthError/Code/network``. Configure the client with `redirectConfiguration: .disallow`
///   so that credentials go only to the named URL: this check reports a misconfigured
///   client, it cannot un-send the redirected request.
/// - Transport failures become ``AuthError/Code/network`` naming the host and the error
///   kind, never headers, query strings or bodies.
///
/// It does not own the client: the caller shuts it down.
public struct AsyncHTTPClientTransport: HTTPTransport {
    /// The longest a request (including reading the body) may take.
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
        let parts = timeout.components
        let nanoseconds = parts.seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let deadline = NIODeadline.now() + .nanoseconds(nanoseconds.overflow ? .max : nanoseconds.partialValue + parts.attoseconds / 1_000_000_000)
        do {
            let response = try await client.execute(outgoing, deadline: deadline)
            guard response.history.count <= 1 else {
                throw AuthError.network("request to \(host) was redirected; configure the HTTPClient with redirectConfiguration: .disallow")
            }
            let body: ByteBuffer
            do {
                body = try await response.body.collect(upTo: maxResponseBytes)
            } catch is NIOTooManyBytesError {
                throw AuthError.network("response from \(host) is larger than \(maxResponseBytes) bytes")
            }
            return HTTPTransportResponse(
                status: Int(response.status.code),
                headers: response.headers.map { HTTPHeader(name: $0.name, value: $0.value) },
                body: Array(buffer: body))
        } catch let error as AuthError {
            throw error
        } catch is CancellationError {
            throw AuthError.cancelled
        } catch let error as HTTPClientError {
            throw AuthError.network("request to \(host) failed (\(error.shortDescription))")
        } catch {
            throw AuthError.network("request to \(host) failed (\(type(of: error)))")
        }
    }
}
