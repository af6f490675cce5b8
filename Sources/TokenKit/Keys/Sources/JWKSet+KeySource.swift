internal import TokenKitPrimitives

/// A fixed key set is a key source that never loads anything.
extension JWKSet: JWTKeySource {
    /// These keys, always.
    public func currentKeys(for request: JWTKeyRequest) -> JWKSet? { self }

    /// These keys, always (an unknown `kid` stays unknown).
    public func loadKeys(for request: JWTKeyRequest) async throws(JWTError) -> JWKSet { self }

    /// Whether a token naming `keyID` could be verified by a key of this set without
    /// loading new keys: `true` for a token without `kid`, for a set that is one key
    /// chosen by the caller, and when some entry has exactly this `kid` (by its bytes).
    func mayHaveKey(forKeyID keyID: String?) -> Bool {
        guard let keyID, !isSingleUnnamedKey else { return !keys.isEmpty }
        for key in keys where key.keyID?.isByteIdentical(to: keyID) == true { return true }
        return false
    }
}
