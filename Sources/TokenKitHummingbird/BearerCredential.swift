#if Hummingbird
import Foundation
import Hummingbird

/// The Bearer token of a request, read as RFC 6750 §2.1 says: the one place the
/// authenticator reads a token from.
enum BearerCredential {
    /// What the request holds.
    enum Found: Equatable {
        /// No `Authorization` header, or one with another scheme (left to other authenticators).
        case none
        /// A Bearer token (its characters are RFC 6750 `b64token` characters).
        case token(String)
        /// A Bearer credential that is not a `b64token` (an invalid token: `401`).
        case malformed(String)
        /// Several `Authorization` fields, or a Bearer token in the header and an
        /// `access_token` in the query string: more than one way of sending a token, which
        /// RFC 6750 §3.1 answers with `invalid_request` (`400`).
        case invalidRequest(String)
    }

    /// Reads `request`'s token: ``find(in:query:)`` over its headers and query string.
    static func find(in request: Request) -> Found {
        find(in: request.headers, query: request.uri.query)
    }

    /// Reads the single `Authorization` field: scheme compared case-insensitively, one or
    /// more spaces, then a `b64token` (`A-Z a-z 0-9 - . _ ~ + /` followed by `=` padding).
    /// A Bearer token found there while `query` also has an `access_token` parameter is an
    /// invalid request. A token in the query string alone is never read (`.none`).
    static func find(in headers: HTTPFields, query: String?) -> Found {
        let found = fromHeader(headers)
        if case .token = found, let query, hasAccessTokenParameter(query) {
            return .invalidRequest("a token was sent both in the Authorization header and in the query string")
        }
        return found
    }

    /// Whether the query string has a parameter named `access_token` (its name
    /// percent-decoded, as RFC 6750 §2.3's form encoding allows).
    static func hasAccessTokenParameter(_ query: String) -> Bool {
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let rawName = pair.prefix { $0 != "=" }
            let name = String(rawName).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(rawName)
            if name.utf8.elementsEqual("access_token".utf8) { return true }
        }
        return false
    }

    private static func fromHeader(_ headers: HTTPFields) -> Found {
        let values = headers[values: .authorization]
        guard !values.isEmpty else { return .none }
        guard values.count == 1, let value = values.first else { return .invalidRequest("more than one Authorization header") }
        let bytes = Array(value.utf8)
        let scheme = Array("bearer".utf8)
        guard bytes.count > scheme.count, zip(bytes, scheme).allSatisfy({ ($0 | 0x20) == $1 }), bytes[scheme.count] == 0x20 else {
            return .none
        }
        var start = scheme.count
        while start < bytes.count, bytes[start] == 0x20 { start += 1 }
        let token = bytes[start...]
        guard !token.isEmpty else { return .malformed("the Bearer credential is empty") }
        var seenPadding = false
        for byte in token {
            switch byte {
            case UInt8(ascii: "="): seenPadding = true
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "+"), UInt8(ascii: "/"):
                if seenPadding { return .malformed("the Bearer credential is not a b64token") }
            default:
                return .malformed("the Bearer credential is not a b64token")
            }
        }
        return .token(String(decoding: token, as: UTF8.self))
    }
}
#endif
