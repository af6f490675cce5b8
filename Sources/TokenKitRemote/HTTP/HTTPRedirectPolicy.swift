/// Which redirects a fetch follows. Applied by ``HTTPTransport/fetch(_:what:)`` — the one
/// place TokenKit follows redirects — never by a transport: every ``HTTPTransport`` returns a
/// 3xx answer as it is.
///
/// Guarantees: with ``none`` the 3xx answer is returned to the caller; with
/// ``sameOrigin(max:)`` a `Location` of the same scheme, host and port is requested (at most
/// `max` times, under the request's one total deadline), and a `Location` on another origin
/// is refused **without being requested**. Credentials-bearing POSTs (token, revocation,
/// device authorization) use ``none``. It does not rewrite methods or bodies: a followed
/// redirect repeats the same request at the new URL.
public struct HTTPRedirectPolicy: Sendable, Hashable, CustomStringConvertible {
    /// Same-origin redirects followed before giving up; `nil` follows none.
    public let maxSameOrigin: Int?

    private init(maxSameOrigin: Int?) { self.maxSameOrigin = maxSameOrigin }

    /// No redirect is followed: the 3xx answer is the response.
    public static let none = HTTPRedirectPolicy(maxSameOrigin: nil)

    /// Same-origin redirects are followed, at most `max` times (clamped to 0…10); a redirect
    /// to another origin is an error and that origin is never requested.
    public static func sameOrigin(max: Int) -> HTTPRedirectPolicy {
        HTTPRedirectPolicy(maxSameOrigin: Swift.min(Swift.max(0, max), 10))
    }

    /// `none` or `same-origin (max N)`.
    public var description: String { maxSameOrigin.map { "same-origin (max \($0))" } ?? "none" }
}
