internal import TokenKitCrypto
internal import TokenKitPrimitives

/// What a JWK's key is read for: JWS (``JWTKey``) or JWE (``JWEKey``), which accept different
/// curves.
enum JWKPurpose {
    case signature
    case encryption
}

/// Typed, strict access to JWK members.
struct JWKFields {
    let object: JSONObject
    init(_ object: JSONObject) { self.object = object }

    /// A JWK's JSON text as an object (strict parser, nesting depth 4).
    static func object(parsing json: String) throws(JWTError) -> JSONObject {
        do { return try StrictJSONParser.parseObject(Array(json.utf8), maxDepth: 4) } catch {
            throw .invalidKey("the JWK is not a valid JSON object: \(error.reason)")
        }
    }

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

    /// `key_ops` as a set compared byte for byte (``IdentifierSet``): `nil` when absent;
    /// refused unless an array of distinct strings (distinct as bytes).
    func keyOperations() throws(JWTError) -> IdentifierSet? {
        guard let ops = object["key_ops"] else { return nil }
        guard let list = ops.arrayValue?.compactMap(\.stringValue), list.count == ops.arrayValue?.count else {
            throw .invalidKey("JWK key_ops must be an array of strings")
        }
        let set = IdentifierSet(list)
        guard set.count == list.count else { throw .invalidKey("JWK key_ops has duplicate values") }
        return set
    }

    /// The key components of an RSA, EC or OKP JWK, for signing (EC on the four JWS curves,
    /// OKP Ed25519/Ed448) or for encryption (EC on P-256/P-384/P-521, OKP X25519).
    func components(kty: String, purpose: JWKPurpose) throws(JWTError) -> KeyComponents {
        switch ExactKey(kty) {  // member values compared byte for byte
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
            guard let curve = ECCurve.allCases.first(where: { $0.rawValue.isByteIdentical(to: crv) }),
                  purpose == .signature || curve != .secp256k1 else {
                throw .invalidKey("unsupported EC curve \"\(JSONNameShortener.shorten(crv))\"")
            }
            let x = try bytes("x", required: true) ?? [], y = try bytes("y", required: true) ?? []
            return .ec(curve: curve, x: x, y: y, d: try bytes("d").map { SecureBytes($0) })
        default:  // OKP
            let crv = try string("crv", required: true) ?? ""
            if purpose == .encryption {
                guard crv.isByteIdentical(to: "X25519") else {
                    throw .invalidKey("unsupported OKP curve \"\(JSONNameShortener.shorten(crv))\" (JWE uses X25519)")
                }
                return .x25519(x: try bytes("x", required: true) ?? [], d: try bytes("d").map { SecureBytes($0) })
            }
            let ed448 = crv.isByteIdentical(to: "Ed448")
            guard ed448 || crv.isByteIdentical(to: "Ed25519") else {
                throw .invalidKey("unsupported OKP curve \"\(JSONNameShortener.shorten(crv))\" (JWS uses Ed25519 and Ed448)")
            }
            let x = try bytes("x", required: true) ?? []
            return .okp(ed448: ed448, x: x, d: try bytes("d").map { SecureBytes($0) })
        }
    }

    /// The JWK members (`kty`, `crv`, coordinates, private parts when `includingPrivate`) of
    /// an asymmetric key: the one writer of key components, for ``JWTKey`` and ``JWEKey``.
    static func members(of key: PKey, includingPrivate: Bool) throws(JWTError) -> JSONObject {
        let components: KeyComponents
        do { components = try key.components(includePrivate: includingPrivate) } catch {
            throw .invalidKey("cannot export the key", cause: error)
        }
        var object = JSONObject()
        func put(_ name: String, _ bytes: some Collection<UInt8>) { object[name] = .string(Base64URL.encode(bytes)) }
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
        case .x25519(let x, let d):
            object["kty"] = .string("OKP")
            object["crv"] = .string("X25519")
            put("x", x)
            d?.withUnsafeBytes { put("d", $0) }
        }
        return object
    }
}
