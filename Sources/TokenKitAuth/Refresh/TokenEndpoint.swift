import Foundation

/// Checks that a token endpoint URL is safe to send credentials to.
enum TokenEndpoint {
    /// Accepts `https` URLs with a host, and `http` only for loopback hosts (`localhost`,
    /// `127.0.0.0/8`, `::1`); rejects userinfo and fragments. The error names the reason.
    /// The rule itself is ``FetchURLPolicy``, the one URL check of every fetch.
    static func validate(_ url: URL) throws(AuthError) {
        try FetchURLPolicy.validate(url, what: "token endpoint")
    }
}
