import Foundation
internal import TokenKitPrimitives

/// The latest `DPoP-Nonce` each server (origin) handed out (RFC 9449 §8 and §9), so the next
/// proof to that server carries it.
///
/// Guarantees: a nonce is kept only when it is 1 to 512 characters of the RFC's NQCHAR set
/// (printable ASCII without `"` and `\`); anything else is ignored. Nonces are not secrets.
final class DPoPNonces: Sendable {
    /// Nonces by origin, the origin compared byte for byte.
    private let slot = LockedValue<[ExactKey: String]>([:])

    /// The nonce to send to `url`'s origin, if the server gave one.
    func nonce(for url: URL) -> String? {
        guard let origin = Self.origin(of: url) else { return nil }
        return slot.withValue { $0[ExactKey(origin)] }
    }

    /// Remembers the `DPoP-Nonce` of `response` (from `url`); returns it when it was valid.
    @discardableResult
    func record(_ response: HTTPTransportResponse, from url: URL) -> String? {
        guard let value = response.headers.first(named: "DPoP-Nonce"), Self.isValid(value),
              let origin = Self.origin(of: url)
        else { return nil }
        slot.withValue { $0[ExactKey(origin)] = value }
        return value
    }

    /// Whether `value` is a syntactically valid nonce (NQCHAR, RFC 9449 §8.1).
    static func isValid(_ value: String) -> Bool {
        !value.isEmpty && value.utf8.count <= 512
            && value.utf8.allSatisfy { CharacterClass.isNQCHAR($0) }
    }

    /// `scheme://host:port`, ASCII letters lowercased (nothing else folds).
    static func origin(of url: URL) -> String? {
        guard let scheme = url.scheme?.asciiLowercased, let host = url.host?.asciiLowercased else { return nil }
        return "\(scheme)://\(host):\(url.port ?? (scheme.isByteIdentical(to: "https") ? 443 : 80))"
    }

    /// Whether `response` is a token endpoint's request for a (new) nonce: HTTP 400 with the
    /// OAuth error `use_dpop_nonce` (RFC 9449 §8).
    static func isTokenEndpointChallenge(_ response: HTTPTransportResponse) -> Bool {
        guard response.status == 400, response.headers.first(named: "DPoP-Nonce") != nil else { return false }
        return TokenEndpointResponse.error(from: response).oauthError?.isByteIdentical(to: "use_dpop_nonce") == true
    }

    /// Whether `response` is a resource server's request for a (new) nonce: HTTP 401 with a
    /// `WWW-Authenticate: DPoP … error="use_dpop_nonce"` challenge (RFC 9449 §9).
    static func isResourceChallenge(_ response: HTTPTransportResponse) -> Bool {
        guard response.status == 401, response.headers.first(named: "DPoP-Nonce") != nil else { return false }
        return response.headers.contains { header in
            header.name.asciiLowercased.isByteIdentical(to: "www-authenticate")
                && header.value.asciiLowercased.utf8.starts(with: "dpop".utf8)
                && header.value.containsBytes(of: "use_dpop_nonce")
        }
    }
}

/// A value guarded by a lock, for small shared caches that are read and written synchronously.
final class LockedValue<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `value` is only touched while `mutex` is held.
    private let mutex = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withValue<T>(_ body: (inout Value) -> T) -> T {
        mutex.lock()
        defer { mutex.unlock() }
        return body(&value)
    }
}
