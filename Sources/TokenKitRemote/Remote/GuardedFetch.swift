import Foundation

/// One GET of a trusted document under ``RemoteFetchOptions``: URL checks, same-origin
/// redirects, the body cap and the overall timeout.
enum GuardedFetch {
    /// What the caller names in errors ("JWKS", "discovery document").
    struct Result: Sendable {
        let response: HTTPTransportResponse
        let url: URL
    }

    /// Checks that `url` may be fetched under `options`; the error names the reason.
    static func validate(_ url: URL, options: RemoteFetchOptions, what: String) throws(AuthError) {
        try FetchURLPolicy.validate(url, what: "\(what) URL", allowsInsecureHTTP: options.allowsInsecureHTTP)
    }

    /// GETs `url` with `headers`, following same-origin redirects; returns the final
    /// non-redirect response (any status) with its body within the cap.
    static func get(
        _ url: URL, headers: [HTTPHeader] = [], transport: any HTTPTransport, options: RemoteFetchOptions, what: String
    ) async throws(AuthError) -> Result {
        try validate(url, options: options, what: what)
        let deadline = ContinuousClock.now.advanced(by: options.timeout)
        var current = url
        var redirects = 0
        while true {
            let request = HTTPTransportRequest(method: "GET", url: current, headers: headers)
            let response = try await send(request, transport: transport, deadline: deadline, what: what)
            guard (300..<400).contains(response.status), response.status != 304 else {
                guard response.body.count <= options.maxBodyBytes else {
                    throw .network("\(what) from \(host(of: current)) is larger than \(options.maxBodyBytes) bytes")
                }
                return Result(response: response, url: current)
            }
            guard let location = response.headers.first(named: "Location"),
                  let next = URL(string: location, relativeTo: current)?.absoluteURL
            else { throw .network("\(what) request to \(host(of: current)) was redirected without a usable Location") }
            guard sameOrigin(current, next) else {
                throw .network("\(what) request to \(host(of: current)) was redirected to another origin (\(host(of: next))); refused")
            }
            redirects += 1
            guard redirects <= options.maxRedirects else {
                throw .network("\(what) request to \(host(of: url)) was redirected more than \(options.maxRedirects) times")
            }
            current = next
        }
    }

    /// `scheme://host:port` of `url` for messages (no path, query or credentials).
    static func host(of url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? "?"
        return "\(scheme)://\(url.host ?? "?")\(url.port.map { ":\($0)" } ?? "")"
    }

    static func sameOrigin(_ a: URL, _ b: URL) -> Bool {
        func origin(_ url: URL) -> (String, String, Int)? {
            guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else { return nil }
            return (scheme, host, url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : -1))
        }
        guard let left = origin(a), let right = origin(b) else { return false }
        return left == right
    }

    /// Sends `request`, failing when `deadline` passes first. Returns at the deadline even if
    /// the transport does not honour cancellation (its task is cancelled and left behind).
    private static func send(
        _ request: HTTPTransportRequest, transport: any HTTPTransport, deadline: ContinuousClock.Instant, what: String
    ) async throws(AuthError) -> HTTPTransportResponse {
        let race = Race<HTTPTransportResponse>()
        let result: Swift.Result<HTTPTransportResponse, any Error> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                race.start(continuation)
                let sender = Task {
                    do { race.finish(.success(try await transport.send(request))) } catch { race.finish(.failure(error)) }
                }
                let timer = Task {
                    try? await Task.sleep(until: deadline, clock: .continuous)
                    race.finish(.failure(AuthError.network("\(what) request to \(host(of: request.url)) timed out")))
                }
                race.onFinish { sender.cancel(); timer.cancel() }
            }
        } onCancel: {
            race.finish(.failure(AuthError.cancelled))
        }
        switch result {
        case .success(let response): return response
        case .failure(let error as AuthError): throw error
        case .failure: throw .network("\(what) request to \(host(of: request.url)) failed")
        }
    }
}

/// The first of several finishers wins; later ones are ignored.
private final class Race<Value: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: every field is read and written under `lock`.
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Swift.Result<Value, any Error>, Never>?
    private var early: Swift.Result<Value, any Error>?
    private var done = false
    private var cleanup: (@Sendable () -> Void)?

    func start(_ continuation: CheckedContinuation<Swift.Result<Value, any Error>, Never>) {
        lock.lock()
        if let early {
            lock.unlock()
            continuation.resume(returning: early)
            return
        }
        self.continuation = continuation
        lock.unlock()
    }

    func onFinish(_ body: @escaping @Sendable () -> Void) {
        lock.lock()
        if done {
            lock.unlock()
            body()
            return
        }
        cleanup = body
        lock.unlock()
    }

    func finish(_ result: Swift.Result<Value, any Error>) {
        lock.lock()
        guard !done else { lock.unlock(); return }
        done = true
        let waiting = continuation
        continuation = nil
        if waiting == nil { early = result }
        let body = cleanup
        cleanup = nil
        lock.unlock()
        waiting?.resume(returning: result)
        body?()
    }
}
