internal import TokenKitCrypto
internal import TokenKitPrimitives

extension JWEKey {
    /// A key from a JWK (RFC 7517/7518, RFC 8037 for X25519) in JSON text.
    ///
    /// Supports `kty` RSA, EC (P-256, P-384, P-521), OKP (X25519) and oct (a shared secret
    /// for A*KW or `dir`), parsed as strictly as JWS keys (canonical base64url, exact sizes,
    /// points on the curve, matching halves). `use`, when present, must be `enc`; `key_ops`,
    /// when present, must allow encrypting or decrypting; `alg` binds the key to that one
    /// algorithm (a refused one such as `RSA1_5` makes the key unusable; an `oct` key whose
    /// `alg` names a content encryption of its length is a `dir` key).
    public init(jwk json: String) throws(JWTError) {
        try self.init(jwk: try JWKFields.object(parsing: json))
    }

    /// A key from a parsed JWK object. See ``init(jwk:)-(String)``.
    public init(jwk: JSONObject) throws(JWTError) {
        let fields = JWKFields(jwk)
        let kty = try fields.string("kty", required: true) ?? ""
        let material: Material
        let fitting: Set<JWEKeyAlgorithm>
        switch ExactKey(kty) {  // JWK member values are compared byte for byte
        case "oct":
            let secret = try fields.bytes("k", required: true) ?? []
            let key = try JWEKey.symmetric(secret: secret)
            (material, fitting) = (key.material, key.algorithms)
        case "RSA", "EC", "OKP":
            let components = try fields.components(kty: kty, purpose: .encryption)
            let key: PKey
            do { key = try PKey(components: components) } catch { throw .invalidKey("invalid \(kty) JWK", cause: error) }
            (material, fitting) = (.asymmetric(key), try Self.fitting(key))
        default:
            throw .invalidKey("unsupported JWK key type \"\(JSONNameShortener.shorten(kty))\"")
        }
        var allowed = fitting
        if let alg = try fields.string("alg") {
            if let algorithm = JWEKeyAlgorithm(name: alg) {
                guard fitting.contains(algorithm) else { throw .invalidKey("JWK alg \(algorithm) does not fit a \(kty) key") }
                allowed = [algorithm]
            } else if let encryption = JWEContentEncryption(name: alg), case .symmetric(let secret) = material,
                      secret.count == encryption.keyByteCount {
                allowed = [.direct]  // a dir key's JWK names the enc it is the content key of (RFC 7520 §5.6)
            } else {
                throw .invalidKey("JWK alg: \(JWEKeyAlgorithm.refusalReason(forName: alg) ?? "unsupported")")
            }
        }
        if let use = try fields.string("use"), !use.isByteIdentical(to: "enc") {
            throw .invalidKey("JWK use \"\(JSONNameShortener.shorten(use))\" is not \"enc\"")
        }
        var mayDecrypt = true, mayEncrypt = true
        if let ops = try fields.keyOperations() {
            mayDecrypt = !ops.isDisjoint(with: ["decrypt", "unwrapKey", "deriveKey", "deriveBits"])
            mayEncrypt = !ops.isDisjoint(with: ["encrypt", "wrapKey", "deriveKey", "deriveBits"])
            guard mayDecrypt || mayEncrypt else { throw .invalidKey("JWK key_ops allows neither encryption nor decryption") }
        }
        self.init(material: material, keyID: try fields.string("kid"), algorithms: allowed, mayDecrypt: mayDecrypt, mayEncrypt: mayEncrypt)
    }

    /// The key as a JWK object (`use` `enc`, and `alg` when the key fits one algorithm).
    /// Private members (`d`, factors, `k`) only when `includingPrivate` is true; the result
    /// then holds secrets.
    public func jwkObject(includingPrivate: Bool = false) throws(JWTError) -> JSONObject {
        var object: JSONObject
        switch material {
        case .symmetric(let secret):
            guard includingPrivate else { throw .invalidKey("a shared secret has no public JWK; use includingPrivate") }
            object = JSONObject()
            object["kty"] = .string("oct")
            object["k"] = .string(secret.withUnsafeBytes { Base64URL.encode($0) })
        case .asymmetric(let key):
            object = try JWKFields.members(of: key, includingPrivate: includingPrivate)
        }
        if let keyID { object["kid"] = .string(keyID) }
        if algorithms.count == 1, let only = algorithms.first { object["alg"] = .string(only.name) }
        object["use"] = .string("enc")
        return object
    }

    /// The key as JWK JSON text. See ``jwkObject(includingPrivate:)``.
    public func jwk(includingPrivate: Bool = false) throws(JWTError) -> String {
        JSONWriter.string(.object(try jwkObject(includingPrivate: includingPrivate)))
    }
}
