/// What a ``JWEDecrypter`` accepts beyond its key.
public struct JWEDecryptionOptions: Sendable {
    /// The largest compact JWE accepted by default: 1 MiB.
    public static let defaultMaxTokenBytes = 1024 * 1024

    /// Key management algorithms accepted; `nil` for every one the key fits.
    public var algorithms: Set<JWEKeyAlgorithm>?
    /// Content encryptions accepted; `nil` for all six.
    public var encryptions: Set<JWEContentEncryption>?
    /// Size and nesting limits (default: 1 MiB tokens, header nesting depth 16).
    public var limits: ParsingLimits

    /// Options with the given restrictions (see each property's default).
    public init(
        algorithms: Set<JWEKeyAlgorithm>? = nil, encryptions: Set<JWEContentEncryption>? = nil,
        limits: ParsingLimits = ParsingLimits(maxTokenBytes: JWEDecryptionOptions.defaultMaxTokenBytes)
    ) {
        self.algorithms = algorithms
        self.encryptions = encryptions
        self.limits = limits
    }
}

/// Decrypts compact JWEs (RFC 7516 §7.1) with one recipient key.
///
/// Order of checks, each failure a ``JWTError`` naming its reason: size limit → five parts
/// (a JWS is refused as such) → header JSON and ``JWEHeader``'s checks (`none`, RSA1_5,
/// PBES2-*, unknown `alg`/`enc`, `zip`, `crit` refused) → the options' allowed algorithms →
/// the `kid` (when both the key and the token have one, byte-identical) → the key fits `alg`
/// (and, for `dir`, `enc`'s key length) → part sizes (IV, full-length tag, CBC blocks, no
/// encrypted key for `dir`/ECDH-ES) → for ECDH-ES*, the `epk` on the key's own curve → content
/// key recovery → authenticated decryption.
///
/// No decryption oracle: a wrong key, a failed RSA-OAEP or AES key unwrap, a wrong tag and
/// bad padding all end in the same ``JWTError/Code/decryptionFailed`` error with the same
/// reason, after the same steps (a failed unwrap continues with a random content key), and
/// tags are compared in constant time. Immutable and `Sendable`.
public struct JWEDecrypter: Sendable {
    /// The recipient's key (a private key or a shared secret).
    public let key: JWEKey
    /// What is accepted beyond the key.
    public let options: JWEDecryptionOptions

    /// A decrypter for `key`, which must be secret (a private key or a shared secret) and
    /// allowed to decrypt (a JWK's `key_ops`). Throws ``JWTError/Code/invalidKey`` otherwise.
    public init(key: JWEKey, options: JWEDecryptionOptions = JWEDecryptionOptions()) throws(JWTError) {
        guard key.isSecret else { throw .invalidKey("decryption needs the private key or the shared secret, not a public key") }
        guard key.mayDecrypt else { throw .invalidKey("the JWK's key_ops do not allow decryption") }
        self.key = key
        self.options = options
    }

    /// Decrypts `token` and returns its header and plaintext.
    public func decrypt(_ token: String) throws(JWTError) -> DecryptedJWE {
        let jwe = try CompactJWE(token, limits: options.limits)
        let header = jwe.header
        if let allowed = options.algorithms, !allowed.contains(header.algorithm) {
            throw JWTError(code: .algorithmNotAllowed, reason: "JWE alg \(header.algorithm) is not allowed (allowed: \(allowed.map(\.name).sorted().joined(separator: ", ")))")
        }
        if let allowed = options.encryptions, !allowed.contains(header.encryption) {
            throw JWTError(code: .algorithmNotAllowed, reason: "JWE enc \(header.encryption) is not allowed (allowed: \(allowed.map(\.name).sorted().joined(separator: ", ")))")
        }
        if let wanted = header.keyID, let mine = key.keyID, !mine.isByteIdentical(to: wanted) {
            throw JWTError(code: .noMatchingKey, reason: "the token is for kid \"\(JSONNameShortener.shorten(wanted))\", not this key")
        }
        try key.check(header.algorithm, header.encryption)
        try jwe.checkSizes()
        let cek = try JWEKeyManagement.recoverContentKey(jwe, key: key)
        return DecryptedJWE(header: header, plaintext: try JWEContentCipher.open(jwe, cek: cek))
    }

    /// Decrypts a nested JWT (RFC 7519 §5.2: signed, then encrypted) and verifies the JWT
    /// inside with `verifier` (its signature and claims, as ``JWTVerifier/verify(_:)`` does).
    /// The JWE's `cty` must say `JWT` (``JWEHeader/isNestedJWT``), else
    /// ``JWTError/Code/typeMismatch``.
    public func decryptNested(_ token: String, verifier: JWTVerifier) throws(JWTError) -> VerifiedJWT {
        let decrypted = try decrypt(token)
        guard decrypted.header.isNestedJWT else {
            let cty = decrypted.header.contentType.map { "\"\(JSONNameShortener.shorten($0))\"" } ?? "absent"
            throw JWTError(code: .typeMismatch, reason: "not a nested JWT: the JWE's cty is \(cty), not \"JWT\"")
        }
        guard let inner = String(validating: decrypted.plaintext, as: UTF8.self) else {
            throw .malformed("the nested JWT is not UTF-8 text")
        }
        return try verifier.verify(inner)
    }
}

/// A decrypted JWE: its protected header and the plaintext.
public struct DecryptedJWE: Sendable {
    /// The protected header (authenticated with the ciphertext).
    public let header: JWEHeader
    /// The plaintext bytes exactly as encrypted. They may be secret: the caller decides
    /// where they go.
    public let plaintext: [UInt8]
}
