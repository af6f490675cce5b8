import TokenKitStore

/// A ``TokenRefresher`` that can also obtain a token set with nothing stored and no refresh
/// token — the client credentials grant, where the client's own credentials are the grant.
///
/// ``AuthProvider`` calls ``acquire(replacing:)`` when nothing is stored, when the stored
/// access token expires (or is rejected) and the set has no refresh token, and when the
/// stored set was acquired for another configuration (``accepts(_:)`` is `false`); it saves
/// the result with the same compare-and-swap and cross-process lock as a refresh. Conformers
/// must never put tokens or secrets in errors.
public protocol TokenAcquirer: TokenRefresher {
    /// A new token set; `previous` is the stored set being replaced (`nil` when none), whose
    /// DPoP key, if any, the new set should keep when it belongs to this configuration.
    func acquire(replacing previous: TokenSet?) async throws(AuthError) -> TokenSet

    /// Whether a stored token set may be handed out for this acquirer's configuration (a
    /// cache keyed by everything that changes the token). The default accepts every set.
    func accepts(_ stored: TokenSet) -> Bool
}

extension TokenAcquirer {
    /// Accepts every stored set (acquirers whose configuration never changes).
    public func accepts(_ stored: TokenSet) -> Bool { true }
}
