import Hummingbird

/// The Bearer token of a request, read as RFC 6750 §2.1 says.
enum BearerCredential {
    /// What the `Authorization` header holds.
    enum Found: Equatable {
        /// No `Authorization` header, or one with another scheme (left to other authenticators).
        case none
        /// A Bearer token (its characters are RFC 6750 `b64token` characters).
        case token(String)
        /// Several `Authorization` fields, or a Bearer credential that is not a `b64token`.
        case malformed(String)
    }

    /// Reads the single `Authorization` field: scheme compared case-insensitively, one or
    /// more spaces, then a `b64token` (`A-Z a-z 0-9 - . _ ~ + /` followed by `=` padding).
    static func find(in headers: HTTPFields) -> Found {
        let values = headers[values: .authorization]
        guard !values.isEmpty else { return .none }
        guard values.count == 1, let value = values.first else { return .malformed("more than one Authorization header") }
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
