import Foundation
import TokenKit

/// Builds test tokens from JSON text (unsigned: the signature part is a fixed dummy).
enum TestTokens {
    static let now: Double = 1_700_000_000
    /// ``now`` as the instant an ``AuditPolicy`` takes.
    static let instant = Date(timeIntervalSince1970: now)

    static func make(header: String = #"{"alg":"HS256","typ":"JWT"}"#, payload: String, signature: String = "c2ln") -> String {
        Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(payload.utf8)) + "." + signature
    }

    /// A token with the given claims JSON members (without braces).
    static func claims(_ members: String, alg: String = "HS256") -> String {
        make(header: #"{"alg":"\#(alg)","typ":"JWT"}"#, payload: "{\(members)}")
    }

    /// A typical token: iat now-600, exp now+3000.
    static func typical(index: Int = 0) -> String {
        claims(#""iss":"https://issuer.example","sub":"user-\#(index)","aud":"api","iat":1699999400,"exp":1700003000"#)
    }
}
