import Foundation
internal import TokenKitPrimitives

extension URL {
    /// `scheme://host[:port]` for messages: no path, query or credentials.
    package var originForMessages: String {
        let scheme = scheme?.asciiLowercased ?? "?"
        return "\(scheme)://\(host ?? "?")\(port.map { ":\($0)" } ?? "")"
    }

    /// Whether `other` has the same scheme, host (ASCII case-insensitive, byte for byte
    /// otherwise: a host that is only Unicode-equivalent is another origin) and port (default
    /// ports filled in) as this URL.
    package func hasSameOrigin(as other: URL) -> Bool {
        func origin(_ url: URL) -> (scheme: String, host: String, port: Int)? {
            guard let scheme = url.scheme?.asciiLowercased, let host = url.host?.asciiLowercased else { return nil }
            let port = url.port ?? (scheme.isByteIdentical(to: "https") ? 443 : scheme.isByteIdentical(to: "http") ? 80 : -1)
            return (scheme, host, port)
        }
        guard let left = origin(self), let right = origin(other) else { return false }
        return left.scheme.isByteIdentical(to: right.scheme) && left.host.isByteIdentical(to: right.host) && left.port == right.port
    }
}
