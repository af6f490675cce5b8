import Foundation

extension HTTPTransport {
    /// The fetch gate: sends `request` under its body cap, its total deadline and its
    /// redirect policy, and returns the final response with the URL it came from. Every
    /// HTTP request TokenKit makes goes through here (token endpoint, JWKS, discovery,
    /// revocation, device authorization).
    ///
    /// Guarantees, whatever the transport:
    /// - the transport is asked for at most ``HTTPTransportRequest/maxResponseBytes`` (the
    ///   shipped adapters stop reading there); a larger body that a transport returns anyway
    ///   is refused here too;
    /// - the whole fetch, redirects included, ends by the request's
    ///   ``HTTPTransportRequest/timeout``: each exchange gets the time that is left, and the
    ///   call returns at the deadline even if the transport ignores cancellation, with the
    ///   transports' own message ("request to HOST did not complete within N s (total
    ///   deadline)");
    /// - redirects follow ``HTTPTransportRequest/redirects`` only; a `Location` on another
    ///   origin is refused before anything is sent to it.
    ///
    /// Errors are ``AuthError``s naming `what` and the origin, never headers or bodies:
    /// ``AuthError/Code/network`` for transport failures, the deadline, a body over the cap and
    /// refused redirects; ``AuthError/Code/cancelled`` when the caller is cancelled.
    public func fetch(_ request: HTTPTransportRequest, what: String) async throws(AuthError) -> HTTPFetchResult {
        let deadline = ContinuousClock.now.advanced(by: request.timeout)
        let cap = request.maxResponseBytes ?? HTTPTransportRequest.defaultMaxResponseBytes
        var current = request
        current.maxResponseBytes = cap
        var redirects = 0
        while true {
            // The transport's own deadline is a backstop a little past the gate's, so that the
            // error names the fetch's deadline (not the few microseconds less that were left).
            current.timeout = max(.zero, ContinuousClock.now.duration(to: deadline)) + Self.transportGrace
            let response = try await sendBefore(deadline, current, what: what, timeout: request.timeout)
            let url = current.url
            guard response.body.count <= cap else {
                throw .network("\(what) from \(url.originForMessages) is larger than \(cap) bytes")
            }
            guard let limit = request.redirects.maxSameOrigin,
                  (300..<400).contains(response.status), response.status != 304
            else { return HTTPFetchResult(response: response, url: url) }
            guard let location = response.headers.first(named: "Location"),
                  let next = URL(string: location, relativeTo: url)?.absoluteURL
            else { throw .network("\(what) request to \(url.originForMessages) was redirected without a usable Location") }
            guard url.hasSameOrigin(as: next) else {
                throw .network("\(what) request to \(url.originForMessages) was redirected to another origin (\(next.originForMessages)); refused")
            }
            redirects += 1
            guard redirects <= limit else {
                throw .network("\(what) request to \(request.url.originForMessages) was redirected more than \(limit) times")
            }
            current.url = next
        }
    }

    /// How much later than the gate's deadline each exchange's own deadline is set.
    private static var transportGrace: Duration { .milliseconds(100) }

    /// One exchange through ``send(_:)``, failing when `deadline` passes first. Returns at the
    /// deadline even if the transport does not honour cancellation (its task is cancelled and
    /// left behind).
    private func sendBefore(
        _ deadline: ContinuousClock.Instant, _ request: HTTPTransportRequest, what: String, timeout: Duration
    ) async throws(AuthError) -> HTTPTransportResponse {
        let race = FirstFinisher<HTTPTransportResponse>()
        let result: Swift.Result<HTTPTransportResponse, any Error> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                race.start(continuation)
                let sender = Task {
                    do { race.finish(.success(try await self.send(request))) } catch { race.finish(.failure(error)) }
                }
                let timer = Task {
                    try? await Task.sleep(until: deadline, clock: .continuous)
                    // The same error as a transport's own deadline: one message for one rule.
                    race.finish(.failure(TransportDeadline.exceeded(host: request.url.host ?? "<no host>", timeout: timeout)))
                }
                race.onFinish { sender.cancel(); timer.cancel() }
            }
        } onCancel: {
            race.finish(.failure(AuthError.cancelled))
        }
        switch result {
        case .success(let response): return response
        case .failure(let error as AuthError): throw error
        case .failure(is CancellationError): throw .cancelled
        case .failure(let error): throw .network("\(what) request to \(request.url.originForMessages) failed (\(type(of: error)))")
        }
    }
}

/// What ``HTTPTransport/fetch(_:what:)`` returns: the final response and the URL that
/// answered it (after same-origin redirects).
public struct HTTPFetchResult: Sendable {
    /// The final, non-followed response (any status), its body within the cap.
    public let response: HTTPTransportResponse
    /// The URL that gave ``response``.
    public let url: URL
}
