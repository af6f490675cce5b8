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
        let object: JSONObject
        do { object = try StrictJSONParser.parseObject(Array(json.utf8), maxDepth: 4) } catch {
            throw .invalidKey("the JWK is not a valid JSON object: \(error.reason)")
        }
        try self.init(jwk: object)
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
            let components = try fields.components(kty: kty)
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
        if let ops = jwk["key_ops"] {
            guard let list = ops.arrayValue?.compactMap(\.stringValue), list.count == ops.arrayValue?.count else {
                throw .invalidKey("JWK key_ops must be an array of strings")
            }
            guard Set(list.map { ExactKey($0) }).count == list.count else { throw .invalidKey("JWK key_ops has duplicate values") }
            mayVerify = list.containsByteIdentical("verify")
            maySign = list.containsByteIdentical("sign")
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
            let components: KeyComponents
            do { components = try key.components(includePrivate: includingPrivate) } catch {
                throw .invalidKey("cannot export the key", cause: error)
            }
            switch components {
            case .rsa(let n, let e, let privateParts):
                object["kty"] = .string("RSA")
                put("n", n)
                put("e", e)
                if let privateParts {
                    privateParts.d.withUnsafeBytes { put("d", $0) }
                    if let f = privateParts.factors {
                        for (name, value) in [("p", f.p), ("q", f.q), ("dp", f.dp), ("dq", f.dq), ("qi", f.qi)] {
                            value.withUnsafeBytes { put(name, $0) }
                        }
                    }
                }
            case .ec(let curve, let x, let y, let d):
                object["kty"] = .string("EC")
                object["crv"] = .string(curve.rawValue)
                put("x", x)
                put("y", y)
                d?.withUnsafeBytes { put("d", $0) }
            case .okp(let ed448, let x, let d):
                object["kty"] = .string("OKP")
                object["crv"] = .string(ed448 ? "Ed448" : "Ed25519")
                put("x", x)
                d?.withUnsafeBytes { put("d", $0) }
            }
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

/// Typed, strict access to JWK members.
private struct JWKFields {
    let object: JSONObject
    init(_ object: JSONObject) { self.object = object }

    func string(_ name: String, required: Bool = false) throws(JWTError) -> String? {
        guard let value = object[name] else {
            if required { throw .invalidKey("JWK has no \"\(name)\"") }
            return nil
        }
        guard let s = value.stringValue else { throw .invalidKey("JWK \"\(name)\" must be a string") }
        return s
    }

    func bytes(_ name: String, required: Bool = false) throws(JWTError) -> [UInt8]? {
        guard let text = try string(name, required: required) else { return nil }
        do { return try Base64URL.decode(text) } catch {
            throw .invalidKey("JWK \"\(name)\" is not canonical base64url: \(error.reason)")
        }
    }

    func components(kty: String) throws(JWTError) -> KeyComponents {
        switch ExactKey(kty) {
        case "RSA":
            let n = try bytes("n", required: true) ?? [], e = try bytes("e", required: true) ?? []
            guard let d = try bytes("d") else {
                for name in ["p", "q", "dp", "dq", "qi", "oth"] where object[name] != nil {
                    throw .invalidKey("RSA JWK has \"\(name)\" without \"d\"")
                }
                return .rsa(n: n, e: e, privateParts: nil)
            }
            if object["oth"] != nil { throw .invalidKey("multi-prime RSA JWKs (\"oth\") are not supported") }
            let names = ["p", "q", "dp", "dq", "qi"]
            let present = names.filter { object[$0] != nil }
            var factors: (p: SecureBytes, q: SecureBytes, dp: SecureBytes, dq: SecureBytes, qi: SecureBytes)?
            if !present.isEmpty {
                guard present.count == names.count else {
                    throw .invalidKey("RSA JWK must have all or none of p, q, dp, dq, qi")
                }
                var values: [SecureBytes] = []
                for name in names { values.append(SecureBytes(try bytes(name) ?? [])) }
                factors = (values[0], values[1], values[2], values[3], values[4])
            }
            return .rsa(n: n, e: e, privateParts: RSAPrivateComponents(d: SecureBytes(d), factors: factors))
        case "EC":
            let crv = try string("crv", required: true) ?? ""
            guard let curve = ECCurve.allCases.first(where: { $0.rawValue.isByteIdentical(to: crv) }) else {
                throw .invalidKey("unsupported EC curve \"\(JSONNameShortener.shorten(crv))\"")
            }
            let x = try bytes("x", required: true) ?? [], y = try bytes("y", required: true) ?? []
            return .ec(curve: curve, x: x, y: y, d: try bytes("d").map { SecureBytes($0) })
        default:  // OKP
            let crv = try string("crv", required: true) ?? ""
            let ed448 = crv.isByteIdentical(to: "Ed448")
            guard ed448 || crv.isByteIdentical(to: "Ed25519") else {
                throw .invalidKey("unsupported OKP curve \"\(JSONNameShortener.shorten(crv))\" (JWS uses Ed25519 and Ed448)")
            }
            let x = try bytes("x", required: true) ?? []
            return .okp(ed448: ed448, x: x, d: try bytes("d").map { SecureBytes($0) })
        }
    }
}
