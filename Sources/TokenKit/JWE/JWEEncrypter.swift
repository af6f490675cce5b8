/// Optional members of a JWE's protected header.
public struct JWEHeaderFields: Sendable {
    /// `kid`; `nil` puts the recipient key's own `kid`, if any.
    public var keyID: String?
    /// `cty`, e.g. `"JWT"` for a nested JWT.
    public var contentType: String?
    /// `typ`.
    public var type: String?

    /// Fields with the given values (all optional).
    public init(keyID: String? = nil, contentType: String? = nil, type: String? = nil) {
        self.keyID = keyID
        self.contentType = contentType
        self.type = type
    }
}

/// Encrypts plaintext as compact JWEs (RFC 7516 §7.1) to one recipient key.
///
/// Every encryption uses fresh randomness from OpenSSL's DRBG: a new content key (except for
/// `dir`, where the shared secret is the content key), a new IV, and for ECDH-ES* a new
/// ephemeral key. The header holds `alg`, `enc`, then `kid`, `cty`, `typ` when given, and
/// `epk` for ECDH-ES*. No `zip` is ever written. Immutable and `Sendable`.
public struct JWEEncrypter: Sendable {
    /// The recipient's key (a public key, or the shared secret).
    public let recipient: JWEKey
    /// The key management algorithm.
    public let algorithm: JWEKeyAlgorithm
    /// The content encryption.
    public let encryption: JWEContentEncryption
    /// The largest token produced (default 1 MiB, what a ``JWEDecrypter`` accepts by default).
    public var maximumTokenBytes = JWEDecryptionOptions.defaultMaxTokenBytes

    /// An encrypter to `recipient` with `algorithm` and `encryption` (default A256GCM).
    ///
    /// - Throws: ``JWTError/Code/algorithmNotAllowed`` when the key does not fit the
    ///   algorithm (or, for `dir`, the encryption's key length); ``JWTError/Code/invalidKey``
    ///   when a JWK's `key_ops` forbid encrypting.
    public init(recipient: JWEKey, algorithm: JWEKeyAlgorithm, encryption: JWEContentEncryption = .a256GCM) throws(JWTError) {
        guard recipient.mayEncrypt else { throw .invalidKey("the JWK's key_ops do not allow encryption") }
        try recipient.check(algorithm, encryption)
        self.recipient = recipient
        self.algorithm = algorithm
        self.encryption = encryption
    }

    /// Encrypts `plaintext`; returns the compact JWE.
    ///
    /// - Throws: ``JWTError/Code/tooLarge`` when the token would exceed ``maximumTokenBytes``.
    public func encrypt(_ plaintext: some Collection<UInt8>, header fields: JWEHeaderFields = JWEHeaderFields()) throws(JWTError) -> String {
        let plaintext = Array(plaintext)
        let estimate = (plaintext.count + 64) * 4 / 3
        guard estimate <= maximumTokenBytes else {
            throw JWTError(code: .tooLarge, reason: "a plaintext of \(plaintext.count) bytes makes a JWE larger than \(maximumTokenBytes) bytes")
        }
        let key = try JWEKeyManagement.newContentKey(to: recipient, algorithm: algorithm, encryption: encryption)
        var header = JSONObject()
        header["alg"] = .string(algorithm.name)
        header["enc"] = .string(encryption.name)
        if let kid = fields.keyID ?? recipient.keyID { header["kid"] = .string(kid) }
        if let cty = fields.contentType { header["cty"] = .string(cty) }
        if let typ = fields.type { header["typ"] = .string(typ) }
        for (name, value) in key.headerMembers { header[name] = value }
        let protected = Base64URL.encode(JSONWriter.bytes(.object(header)))
        let sealed = try JWEContentCipher.seal(plaintext, cek: key.cek, encryption: encryption, additionalData: Array(protected.utf8))
        let token = [protected, Base64URL.encode(key.encryptedKey), Base64URL.encode(sealed.iv),
                     Base64URL.encode(sealed.ciphertext), Base64URL.encode(sealed.tag)].joined(separator: ".")
        guard token.utf8.count <= maximumTokenBytes else {
            throw JWTError(code: .tooLarge, reason: "the JWE would be \(token.utf8.count) bytes, more than \(maximumTokenBytes)")
        }
        return token
    }

    /// Encrypts a signed JWT as a nested JWT (RFC 7519 §5.2): `cty` is `JWT`.
    public func encryptNested(_ signedJWT: String, keyID: String? = nil) throws(JWTError) -> String {
        try encrypt(Array(signedJWT.utf8), header: JWEHeaderFields(keyID: keyID, contentType: "JWT"))
    }
}
