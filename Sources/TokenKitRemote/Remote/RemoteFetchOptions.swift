/// How TokenKit fetches documents it trusts for keys and endpoints (a JWKS, an OpenID
/// discovery document): which URLs it accepts, how long it waits and how much it reads.
///
/// Guarantees, applied by ``RemoteJWKS`` and ``OpenIDDiscovery`` to every request:
/// - only `https` URLs, or plain `http` for loopback hosts (`localhost`, `127.0.0.0/8`,
///   `::1`); any other `http` host only when ``allowsInsecureHTTP`` is set;
/// - redirects are followed only within the same origin (scheme, host and port), at most
///   ``maxRedirects`` times; a redirect to another origin is refused;
/// - a body larger than ``maxBodyBytes`` is refused;
/// - a request that has not completed after ``timeout`` fails (the caller returns
///   then, even if the transport ignores cancellation).
///
/// It does not pin certificates or restrict which https hosts are reachable: key URLs come
/// from your configuration only, never from a token.
public struct RemoteFetchOptions: Sendable {
    /// How long a whole request (including redirects) may take (default 10 s).
    public var timeout: Duration
    /// The largest body accepted (default 1 MiB).
    public var maxBodyBytes: Int
    /// Same-origin redirects followed before giving up (default 3; 0 refuses every redirect).
    public var maxRedirects: Int
    /// Allows plain `http` to hosts other than loopback. Off by default.
    /// - Warning: anyone on the network path can then replace the keys you trust.
    public var allowsInsecureHTTP: Bool

    /// Creates options; out-of-range values are clamped (timeout 0.01…600 s, body ≥ 1 byte,
    /// redirects 0…10).
    public init(timeout: Duration = .seconds(10), maxBodyBytes: Int = 1024 * 1024, maxRedirects: Int = 3, allowsInsecureHTTP: Bool = false) {
        self.timeout = min(max(timeout, .milliseconds(10)), .seconds(600))
        self.maxBodyBytes = max(1, maxBodyBytes)
        self.maxRedirects = min(max(0, maxRedirects), 10)
        self.allowsInsecureHTTP = allowsInsecureHTTP
    }
}
