// The provider, grants and sign-in flows work on TokenKitStore's types (`TokenStore`,
// `TokenSet`, `CredentialKey`, and the `RefreshLock`/`FileRefreshLock` that moved there in
// issue 24): importing TokenKitAuth is enough to name them, as before the move.
@_exported import TokenKitStore
