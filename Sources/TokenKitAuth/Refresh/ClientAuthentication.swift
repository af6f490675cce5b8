import TokenKit

/// How the client authenticates to the token endpoint (RFC 6749 §2.3, RFC 7523 §2.2).
///
/// `description` never shows the secret or the key.
public struct ClientAuthentication: Sendable, CustomStringConvertible {
    enum Method: Sendable {
        case none
        case clientSecretBasic(secret: String)
        case clientSecretPost(secret: String)
        case privateKeyJWT(signer: JWTSigner, lifetime: Int)
    }

    let method: Method

    /// A public client: `client_id` goes in the form body and no secret is sent.
    public static var none: Self { .init(method: .none) }

    /// A confidential client: HTTP Basic with the client id and `secret`, each
    /// form-urlencoded first as RFC 6749 §2.3.1 requires (`client_secret_basic`).
    public static func clientSecretBasic(secret: String) -> Self {
        .init(method: .clientSecretBasic(secret: secret))
    }

    /// A confidential client: `client_id` and `client_secret` in the form body
    /// (`client_secret_post`, RFC 6749 §2.3.1; servers must support Basic, not this).
    public static func clientSecretPost(secret: String) -> Self {
        .init(method: .clientSecretPost(secret: secret))
    }

    /// A client that proves itself with a JWT signed by its private key (`private_key_jwt`,
    /// RFC 7523 §2.2 and OIDC Core §9): every token request carries a fresh assertion with
    /// `iss` = `sub` = the client id, `aud` = the token endpoint URL, a random `jti`, `iat`
    /// and an `exp` `lifetimeSeconds` later (default 60, at most 300).
    ///
    /// Throws ``AuthError/Code/invalidConfiguration`` for an HMAC secret (that would be
    /// `client_secret_jwt`), a public key, a key that may not sign `algorithm`, or a lifetime
    /// outside 1…300 seconds. The key's `kid` goes in the assertion header when it has one.
    public static func privateKeyJWT(
        key: JWTKey, algorithm: JWTAlgorithm? = nil, lifetimeSeconds: Int = 60
    ) throws(AuthError) -> Self {
        guard key.keyType != "oct" else {
            throw .invalidConfiguration("private_key_jwt needs an asymmetric private key, not a shared secret")
        }
        guard key.canSign else { throw .invalidConfiguration("private_key_jwt needs a private key (this one cannot sign)") }
        guard (1...300).contains(lifetimeSeconds) else {
            throw .invalidConfiguration("a client assertion must live 1 to 300 seconds")
        }
        do {
            return .init(method: .privateKeyJWT(signer: try JWTSigner(key: key, algorithm: algorithm), lifetime: lifetimeSeconds))
        } catch {
            throw .invalidConfiguration("private_key_jwt key: \(error.reason)")
        }
    }

    /// The RFC 8414 method name: `"none"`, `"client_secret_basic"`, `"client_secret_post"` or
    /// `"private_key_jwt"`.
    public var methodName: String {
        switch method {
        case .none: "none"
        case .clientSecretBasic: "client_secret_basic"
        case .clientSecretPost: "client_secret_post"
        case .privateKeyJWT: "private_key_jwt"
        }
    }

    /// The same as ``methodName``.
    public var description: String { methodName }
}
