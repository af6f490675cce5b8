/// The grant whose token endpoint answer ``TokenResponseAdmission`` reads: it names the grant
/// and picks how a refusal (a non-200 OAuth error) is reported to that grant's caller.
enum TokenGrantKind: String, Sendable, CaseIterable {
    /// The authorization code grant with PKCE (browser sign-in).
    case authorizationCode = "authorization code"
    /// The device authorization grant (RFC 8628), once the user approved.
    case deviceCode = "device code"
    /// The refresh_token grant.
    case refreshToken = "refresh token"
    /// The client credentials grant.
    case clientCredentials = "client credentials"

    /// The error for a non-200 answer: the OAuth error (RFC 6749 §5.2) worded for this grant,
    /// else the HTTP status.
    ///
    /// - Refresh: `invalid_grant` is ``AuthError/Code/signInRequired`` (the stored login is
    ///   over), other OAuth errors ``AuthError/Code/refreshRejected``.
    /// - Client credentials: every OAuth error is ``AuthError/Code/refreshRejected``.
    /// - Sign-in (code, device): `access_denied` is ``AuthError/Code/accessDenied``, others
    ///   ``AuthError/Code/authorizationFailed``.
    func refusal(_ response: HTTPTransportResponse) -> AuthError {
        let error = TokenEndpointResponse.error(from: response)
        guard let oauthError = error.oauthError else { return error }
        switch self {
        case .refreshToken:
            return error
        case .clientCredentials:
            return AuthError(
                code: .refreshRejected,
                message: "the token endpoint rejected the client credentials grant: \(oauthError) (HTTP \(response.status))",
                oauthError: oauthError)
        case .authorizationCode, .deviceCode:
            return SignInTokenRequest.oauthError(from: error, rejecting: "the \(rawValue)")
        }
    }
}
