internal import TokenKitCrypto
internal import TokenKitPrimitives

extension JWTKey {
    /// A key from a JWK (RFC 7517/7518, RFC 8037 for OKP) in JSON text.
    ///
    /// Supports `kty` RSA, EC (P-256, P-384, P-521, secp256k1), OKP (Ed25519, Ed448) and
    /// oct (HMAC). Members are parsed strictly (canonical base64url, exact coordinate sizes,
    /// points on the curve, matching private and public halves). The JWK's `alg` binds the
    /// key to that one algorithm; `use` other than `sig` or `key_ops` without
    /// `sign`/`verify` make it unusable for JWS (throws).
    public init(jwk json: String) throws(JWTError) {
        try self.init(jwk: try JWKFields.object(parsing: json))
    }

    /// A key from a parsed JWK object. See ``init(jwk:)-(String)``.
    public init(jwk: JSONObject) throws(JWTError) {
        let fields = JWKFields(jwk)
        let kty = try fields.string("kty", required: true) ?? ""
        let keyID = try fields.string("kid")
        let material: Material
        let fitting: Set<JWTAlgorithm>
        switch ExactKey(kty) {  // JWK member values are compared byte for byte (RFC 7517 §4)
        case "oct":
            let secret = try fields.bytes("k", required: true) ?? []
            let algorithms = JWTAlgorithm.hmacAlgorithms(secretLength: secret.count)
            guard !algorithms.isEmpty else {
                throw .invalidKey("JWK oct key of \(secret.count) bytes is too short (HS256 needs at least 32 bytes)")
            }
            material = .hmac(try HMACSecret(secret, algorithms: algorithms))
            fitting = algorithms
        case "RSA", "EC", "OKP":
            let components = try fields.components(kty: kty, purpose: .signature)
            do {
                let key = try PKey(components: components)
                material = .asymmetric(key)
                fitting = JWTAlgorithm.algorithms(for: key.type)
            } catch {
                throw .invalidKey("invalid \(kty) JWK", cause: error)
            }
        default:
            throw .invalidKey("unsupported JWK key type \"\(JSONNameShortener.shorten(kty))\"")
        }

        var allowed = fitting
        if let alg = try fields.string("alg") {
            guard let algorithm = JWTAlgorithm(name: alg) else {
                throw .invalidKey("JWK alg \"\(JSONNameShortener.shorten(alg))\" is not a supported JWS algorithm")
            }
            guard fitting.contains(algorithm) else {
                throw .invalidKey("JWK alg \(alg) does not fit a \(kty) key")
            }
            allowed = [algorithm]
        }
        var mayVerify = true, maySign = true
        if let use = try fields.string("use"), !use.isByteIdentical(to: "sig") {
            throw .invalidKey("JWK use \"\(JSONNameShortener.shorten(use))\" is not \"sig\"")
        }
        if let ops = try fields.keyOperations() {
            mayVerify = ops.contains("verify")
            maySign = ops.contains("sign")
            guard mayVerify || maySign else { throw .invalidKey("JWK key_ops allows neither sign nor verify") }
        }
        self.init(material: material, keyID: keyID, algorithms: allowed, mayVerify: mayVerify, maySign: maySign)
    }

    /// The key as a JWK object. Private members (`d`, factors, `k`) only when
    /// `includingPrivate` is true; the result then holds secrets.
    public func jwkObject(includingPrivate: Bool = false) throws(JWTError) -> JSONObject {
        var object = JSONObject()
        func put(_ name: String, _ bytes: some Collection<UInt8>) { object[name] = .string(Base64URL.encode(bytes)) }
        switch material {
        case .hmac(let secret):
            object["kty"] = .string("oct")
            guard includingPrivate else { throw .invalidKey("an HMAC key has no public JWK; use includingPrivate") }
            secret.withSecretBytes { put("k", $0) }
        case .asymmetric(let key):
            object = try JWKFields.members(of: key, includingPrivate: includingPrivate)
        }
        if let keyID { object["kid"] = .string(keyID) }
        if algorithms.count == 1, let only = algorithms.first { object["alg"] = .string(only.name) }
        object["use"] = .string("sig")
        return object
    }

    /// The key as JWK JSON text. See ``jwkObject(includingPrivate:)``.
    public func jwk(includingPrivate: Bool = false) throws(JWTError) -> String {
        JSONWriter.string(.object(try jwkObject(includingPrivate: includingPrivate)))
    }

    /// The RFC 7638 JWK thumbprint (SHA-256, base64url) of the public key (of the secret
    /// for HMAC keys).
    public func thumbprint() throws(JWTError) -> String {
        let full = try jwkObject(includingPrivate: keyType == "oct")
        let required: [String]
        switch keyType {
        case "RSA": required = ["e", "kty", "n"]
        case "EC": required = ["crv", "kty", "x", "y"]
        case "OKP": required = ["crv", "kty", "x"]
        default: required = ["k", "kty"]
        }
        var canonical = JSONObject()
        for name in required { canonical[name] = full[name] }
        return Base64URL.encode(MessageDigest.sha256.hash(JSONWriter.bytes(.object(canonical))))
    }
}
