extension JWKSet {
    /// The public JWKS document of `keys` (`{"keys":[…]}`), to serve at
    /// `/.well-known/jwks.json`: public parameters only (`kty`, `crv`, `n`, `e`, `x`, `y`,
    /// `kid`, `alg` when the key is bound to one algorithm, `use`), never a private one.
    ///
    /// - Throws: ``JWTError/Code/invalidKey`` for an HMAC secret (it has no public form
    ///   and must never be published) or a key that cannot be exported.
    public static func publicDocument(_ keys: [JWTKey]) throws(JWTError) -> String {
        var entries: [JSONValue] = []
        for key in keys {
            guard key.keyType != "oct" else {
                throw .invalidKey("an HMAC secret\(key.keyID.map { " (kid \"\($0)\")" } ?? "") cannot be published in a JWKS")
            }
            entries.append(.object(try key.publicKey().jwkObject(includingPrivate: false)))
        }
        return JSONWriter.string(.object(JSONObject([("keys", .array(entries))])))
    }
}
