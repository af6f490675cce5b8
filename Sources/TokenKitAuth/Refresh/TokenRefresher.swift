import TokenKitStore

/// Exchanges a token set for a fresh one (typically through a refresh token).
///
/// ``AuthProvider`` calls a refresher at most once per refresh, with the token set it
/// just re-read from the store, and saves the result before any caller sees it.
/// Conformers must:
/// - throw ``AuthError/Code/signInRequired`` when the server says the refresh token is no
///   longer valid (OAuth 2.0 `invalid_grant`): the provider then clears the stored credential;
/// - return a token set that keeps the old refresh token when the server issued no new one;
/// - never put tokens or secrets in error messages.
public protocol TokenRefresher: Sendable {
    /// Returns a fresh token set for `tokenSet`.
    func refresh(_ tokenSet: TokenSet) async throws(AuthError) -> TokenSet
}
