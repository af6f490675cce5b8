import TokenKit
internal import TokenKitCrypto

/// A PKCE pair (RFC 7636) with the S256 method, the only one TokenKit sends.
///
/// Guarantees: the verifier is 43 characters of base64url from 32 bytes of OpenSSL's DRBG
/// (256 bits), the challenge is `BASE64URL(SHA-256(verifier))`. `description` never shows the
/// verifier. It does not stop a malicious app on the same machine that can read this process's
/// memory; it stops an interceptor who only sees the authorization response.
public struct PKCE: Sendable, CustomStringConvertible {
    /// The secret sent only to the token endpoint.
    public let verifier: String
    /// `BASE64URL(SHA-256(verifier))`, sent in the authorization request.
    public let challenge: String
    /// Always `"S256"`.
    public var method: String { "S256" }

    /// A fresh random pair; throws ``AuthError/Code/invalidConfiguration`` if the random
    /// generator fails.
    public init() throws(AuthError) {
        let verifier = Base64URL.encode(try SignInRandom.bytes(32))
        try self.init(verifier: verifier)
    }

    /// The pair for a given verifier (RFC 7636 §4.1: 43 to 128 unreserved characters).
    public init(verifier: String) throws(AuthError) {
        guard (43...128).contains(verifier.utf8.count),
              verifier.utf8.allSatisfy({ SignInRandom.isUnreserved($0) })
        else { throw .invalidConfiguration("a PKCE verifier must be 43 to 128 unreserved characters") }
        let digest: [UInt8]
        do { digest = try SHA256Digest.hash(Array(verifier.utf8)) } catch {
            throw .invalidConfiguration("SHA-256 failed while making the PKCE challenge")
        }
        self.verifier = verifier
        self.challenge = Base64URL.encode(digest)
    }

    /// `PKCE(S256, challenge: …)`: the verifier is never shown.
    public var description: String { "PKCE(S256, challenge: \(challenge))" }
}

/// Random values for sign-in requests (`state`, `nonce`, PKCE verifiers).
enum SignInRandom {
    /// `count` bytes from OpenSSL's DRBG.
    static func bytes(_ count: Int) throws(AuthError) -> [UInt8] {
        do { return try RandomBytes.generate(count: count) } catch {
            throw .invalidConfiguration("the random generator failed")
        }
    }

    /// 32 random bytes as base64url (43 characters): for `state` and `nonce`.
    static func token() throws(AuthError) -> String { Base64URL.encode(try bytes(32)) }

    /// RFC 3986 unreserved: `A-Z a-z 0-9 - . _ ~`.
    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, 0x2D, 0x2E, 0x5F, 0x7E: true
        default: false
        }
    }
}
