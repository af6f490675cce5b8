import CReleaseLink
import TokenKitURLSession

/// The HTTP transport of every `tokenkit` command that makes a request (`token`, `login`,
/// `logout`, a remote `--jwks` or `--issuer-discovery`).
///
/// Guarantees that the HTTP library is there before Foundation's URLSession is built: the
/// statically linked release binary loads libcurl on first use (Packaging/lazy-libcurl.c), and
/// when it cannot, the command fails with one `error:` line naming the library (exit 2)
/// instead of handing URLSession a null handle. Other builds link libcurl as usual and pass
/// straight through. Does not check the network or the server.
enum HTTPTransports {
    /// A ``URLSessionTransport`` bounded by `timeout`, or ``CLIFailure/io(_:)`` when libcurl
    /// cannot be loaded.
    static func urlSession(timeout: Duration) throws -> URLSessionTransport {
        var reason: UnsafePointer<CChar>?
        guard tokenkit_release_http_ready(&reason) == 1 else {
            let detail = reason.map { String(cString: $0) } ?? "unknown reason"
            throw CLIFailure.io("HTTP needs libcurl (libcurl.so.4), which could not be loaded: \(detail)")
        }
        return URLSessionTransport(timeout: timeout)
    }
}
