extension AuthError.Code {
    /// The user (or the authorization server on their behalf) refused: `error=access_denied`
    /// in the authorization response, or `access_denied` while polling a device code.
    public static let accessDenied = AuthError.Code("access-denied")
    /// The authorization server answered the authorization request (or device polling) with an
    /// OAuth error other than `access_denied` (e.g. `invalid_scope`, `invalid_grant` for a
    /// replayed code); ``AuthError/oauthError`` holds its `error` value.
    public static let authorizationFailed = AuthError.Code("authorization-failed")
    /// The ID token failed OpenID Connect Core §3.1.3.7 validation (signature, `iss`, `aud`,
    /// `azp`, `exp`, `iat` or `nonce`); nothing was stored.
    public static let invalidIDToken = AuthError.Code("invalid-id-token")
    /// The sign-in did not finish in time: the browser never came back before the timeout, or
    /// the device code expired (`expired_token`).
    public static let signInExpired = AuthError.Code("sign-in-expired")
    /// The one-time start URL of a browser sign-in was requested a second time: another
    /// program may have read it (from the browser's command line) and started the sign-in
    /// with its own account, so the sign-in was ended and nothing was stored.
    public static let startURLReused = AuthError.Code("start-url-reused")
}

extension AuthError {
    /// An ``Code/authorizationFailed`` error for the OAuth `error` value `code`.
    static func authorizationFailed(_ what: String, oauthError: String?) -> Self {
        .init(code: .authorizationFailed, message: what, oauthError: oauthError)
    }
}
