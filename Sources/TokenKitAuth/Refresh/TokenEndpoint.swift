import Foundation

/// Checks that a token endpoint URL is safe to send credentials to.
enum TokenEndpoint {
    /// Accepts `https` URLs with a host, and `http` only for loopback hosts (`localhost`,
    /// `127.0.0.0/8`, `::1`); rejects userinfo and fragments. The error names the reason.
    static func validate(_ url: URL) throws(AuthError) {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
              let scheme = components.scheme?.lowercased(),
              let host = components.host, !host.isEmpty
        else { throw .invalidConfiguration("token endpoint must be an absolute URL with a host") }
        guard components.user == nil, components.password == nil else {
            throw .invalidConfiguration("token endpoint must not contain a user name or password")
        }
        guard components.fragment == nil else {
            throw .invalidConfiguration("token endpoint must not contain a fragment")
        }
        switch scheme {
        case "https":
            return
        case "http":
            guard isLoopback(host) else {
                throw .invalidConfiguration("token endpoint must use https (http is allowed only for loopback addresses)")
            }
        default:
            throw .invalidConfiguration("token endpoint must use https (got scheme \"\(scheme)\")")
        }
    }

    /// Whether `host` names this machine's loopback interface.
    static func isLoopback(_ host: String) -> Bool {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if bare.lowercased() == "localhost" || bare == "::1" || bare == "0:0:0:0:0:0:0:1" { return true }
        let octets = bare.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4 else { return false }
        let values = octets.map { octet -> Int? in
            guard !octet.isEmpty, octet.count <= 3, octet.allSatisfy(\.isASCII), octet.allSatisfy(\.isNumber) else { return nil }
            return Int(octet)
        }
        guard values.allSatisfy({ $0.map { $0 <= 255 } ?? false }) else { return false }
        return values.first == 127
    }
}
