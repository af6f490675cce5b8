/// What ``RescuingTokenStore`` reports when a credential went to the rescue file because its
/// own store failed to take it. Holds no secret.
public struct RescueNotice: Sendable {
    /// The credential's key.
    public let key: CredentialKey
    /// The store that failed (its ``TokenStore/backendName``).
    public let backendName: String
    /// Why it failed (the last attempt's error).
    public let failure: TokenStoreError
    /// The rescue file now holding the credential.
    public let rescuePath: String
}
