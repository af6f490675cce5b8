import Foundation

extension URL {
    /// `scheme://host[:port]` for messages: no path, query or credentials.
    package var originForMessages: String {
        let scheme = scheme?.lowercased() ?? "?"
        return "\(scheme)://\(host ?? "?")\(port.map { ":\($0)" } ?? "")"
    }

    /// Whether `other` has the same scheme, host (case-insensitive) and port (default ports
    /// filled in) as this URL.
    package func hasSameOrigin(as other: URL) -> Bool {
        func origin(_ url: URL) -> (String, String, Int)? {
            guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else { return nil }
            return (scheme, host, url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : -1))
        }
        guard let left = origin(self), let right = origin(other) else { return false }
        return left == right
    }
}
