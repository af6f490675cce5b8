#if AsyncHTTPClient
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import TokenKitRemote

/// An ``HTTPTransport`` over AsyncHTTPClient, on an `HTTPClient` it owns.
///
/// Guarantees:
/// - **No redirect is ever followed by the client**: the transport makes its own `HTTPClient`
///   from your configuration with `redirectConfiguration` forced to `.disallow`, so a 3xx
///   answer is returned as it is and another origin is never requested. TokenKit's one
///   redirect policy is applied by ``HTTPTransport/fetch(_:what:)`` (same-origin only, for
///   the documents that allow it). It does not take an `HTTPClient` you made: its redirect
///   configuration cannot be read back, so following could not be ruled out.
/// - One request per ``send(_:)``, bounded in total (body included) by the smaller of
///   ``timeout`` and the request's ``HTTPTransportRequest/timeout``.
/// - The body is read as a stream, counting bytes, and the request is cancelled (its
///   connection closed) as soon as it would exceed the smaller of ``maxResponseBytes`` and the
///   request's cap, with or without a `Content-Length` (a larger one is refused before the
///   body is read): no more than the cap (plus one chunk in flight) is ever held;
///   ``AuthError/Code/network``.
/// - Transport failures become ``AuthError/Code/network`` naming the host and the error
///   kind, never headers, query strings or bodies.
///
/// Shut down a transport you made with ``shutdown()``; ``shared`` lives as long as the process.
public final class AsyncHTTPClientTransport: HTTPTransport {
    /// The longest a request (including reading the body) may take; a request's own shorter
    /// ``HTTPTransportRequest/timeout`` wins.
    public let timeout: Duration
    /// The largest response body returned.
    public let maxResponseBytes: Int
    private let client: HTTPClient
    private let isShared: Bool

    /// One transport for the whole process, over its own client (`.disallow` redirects, the
    /// default event loop group, 30 s, 4 MiB); never shut down, like `HTTPClient.shared`.
    public static let shared = AsyncHTTPClientTransport(
        configuration: HTTPClient.Configuration(), eventLoopGroup: HTTPClient.defaultEventLoopGroup,
        timeout: .seconds(30), maxResponseBytes: HTTPTransportRequest.defaultMaxResponseBytes, isShared: true)

    /// A transport over a new `HTTPClient` made from `configuration` (TLS, proxy, pool and
    /// timeouts as you set them) with redirects forced off; call ``shutdown()`` when done.
    public convenience init(
        configuration: HTTPClient.Configuration = HTTPClient.Configuration(),
        eventLoopGroup: any EventLoopGroup = HTTPClient.defaultEventLoopGroup,
        timeout: Duration = .seconds(30), maxResponseBytes: Int = HTTPTransportRequest.defaultMaxResponseBytes
    ) {
        self.init(configuration: configuration, eventLoopGroup: eventLoopGroup, timeout: timeout, maxResponseBytes: maxResponseBytes, isShared: false)
    }

    /// Removed (issue 23): a client you made may follow redirects, and its configuration
    /// cannot be read back to refuse it.
    @available(*, unavailable, message: "a caller's HTTPClient may follow redirects; use AsyncHTTPClientTransport.shared or init(configuration:eventLoopGroup:timeout:maxResponseBytes:)")
    public convenience init(client: HTTPClient, timeout: Duration = .seconds(30), maxResponseBytes: Int = 4 * 1024 * 1024) {
        fatalError("unavailable")
    }

    private init(
        configuration: HTTPClient.Configuration, eventLoopGroup: any EventLoopGroup,
        timeout: Duration, maxResponseBytes: Int, isShared: Bool
    ) {
        var configuration = configuration
        configuration.redirectConfiguration = .disallow
        client = HTTPClient(eventLoopGroup: eventLoopGroup, configuration: configuration)
        self.timeout = timeout
        self.maxResponseBytes = maxResponseBytes
        self.isShared = isShared
    }

    /// Shuts the transport's client down (a no-op for ``shared``). Requests after it fail.
    public func shutdown() async throws {
        guard !isShared else { return }
        try await client.shutdown()
    }

    /// Sends `request` once, never following a redirect, and returns the response.
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
                    // Unreachable with `.disallow`; kept so that no followed answer is ever used.
                    throw AuthError.network("request to \(host) was redirected by the HTTP client; refused")
                }
                if let announced = response.headers.first(name: "content-length").flatMap({ Int($0) }), announced > limit {
                    throw AuthError.network("response from \(host) is larger than \(limit) bytes")
                }
                // Leaving the loop early (the cap, an error, cancellation) drops the stream,
                // which cancels the request and closes its connection: nothing more is read.
                var body = ByteBuffer()
                for try await chunk in response.body {
                    guard chunk.readableBytes <= limit - body.readableBytes else {
                        throw AuthError.network("response from \(host) is larger than \(limit) bytes")
                    }
                    body.writeImmutableBuffer(chunk)
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
#endif
