/// How the client authenticates to the token endpoint (RFC 6749 §2.3).
///
/// `description` never shows the secret.
public struct ClientAuthentication: Sendable, CustomStringConvertible {
    enum Method: Sendable {
        case none
        case clientSecretBasic(secret: String)
    }

    let method: Method

    /// A public client: `client_id` goes in the form body and no secret is sent.
    public static var none: Self { .init(method: .none) }

    /// A confidential client: HTTP Basic with the client id and `secret`, each
    /// form-urlencoded first as RFC 6749 §2.3.1 requires (`client_secret_basic`).
    public static func clientSecretBasic(secret: String) -> Self {
        .init(method: .clientSecretBasic(secret: secret))
    }

    /// `"none"` or `"client_secret_basic"`.
    public var description: String {
        switch method {
        case .none: "none"
        case .clientSecretBasic: "client_secret_basic"
        }
    }
}
