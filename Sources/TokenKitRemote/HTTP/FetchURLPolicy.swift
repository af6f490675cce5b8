import Foundation
internal import TokenKitPrimitives

/// The one check of a URL before TokenKit sends anything to it (a token endpoint, a JWKS, a
/// discovery document, a revocation or device-authorization endpoint).
///
/// Guarantees: accepts `https` URLs with a host, and plain `http` only for loopback hosts
/// (`localhost`, `127.0.0.0/8`, `::1`) unless `allowsInsecureHTTP`; refuses a user name or
/// password and a fragment; every refusal is ``AuthError/Code/invalidConfiguration`` naming
/// `what` and the reason. It does not resolve names or restrict which https hosts are used.
package enum FetchURLPolicy {
    /// Throws when `url` may not be fetched; `what` names it in the message (e.g.
    /// `"token endpoint"`, `"JWKS URL"`).
    package static func validate(_ url: URL, what: String, allowsInsecureHTTP: Bool = false) throws(AuthError) {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
              let scheme = components.scheme?.asciiLowercased,
              let host = components.host, !host.isEmpty
        else { throw .invalidConfiguration("\(what) must be an absolute URL with a host") }
        guard components.user == nil, components.password == nil else {
            throw .invalidConfiguration("\(what) must not contain a user name or password")
        }
        guard components.fragment == nil else {
            throw .invalidConfiguration("\(what) must not contain a fragment")
        }
        switch scheme {
        case "https":
            return
        case "http":
            guard allowsInsecureHTTP || isLoopback(host) else {
                throw .invalidConfiguration("\(what) must use https (http is allowed only for loopback addresses)")
            }
        default:
            throw .invalidConfiguration("\(what) must use https (got scheme \"\(scheme)\")")
        }
    }

    /// Whether `host` names this machine's loopback interface.
    package static func isLoopback(_ host: String) -> Bool {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if bare.isASCIICaseInsensitiveEqual(to: "localhost") || bare == "::1" || bare == "0:0:0:0:0:0:0:1" { return true }
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
