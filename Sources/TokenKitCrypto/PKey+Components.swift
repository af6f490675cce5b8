internal import COpenSSL

/// The private parts of an RSA key in JWK form (RFC 7518 §6.3.2), big-endian bytes.
package struct RSAPrivateComponents: Sendable {
    package var d: SecureBytes
    /// p, q, dp, dq, qi: all present or all absent (RFC 7518 §6.3.2).
    package var factors: (p: SecureBytes, q: SecureBytes, dp: SecureBytes, dq: SecureBytes, qi: SecureBytes)?

    package init(d: SecureBytes, factors: (p: SecureBytes, q: SecureBytes, dp: SecureBytes, dq: SecureBytes, qi: SecureBytes)?) {
        self.d = d
        self.factors = factors
    }
}

/// The raw components of a key, as JWK carries them (big-endian unsigned integers,
/// coordinates and raw OKP keys). Private fields are `SecureBytes`.
package enum KeyComponents: Sendable {
    case rsa(n: [UInt8], e: [UInt8], privateParts: RSAPrivateComponents?)
    case ec(curve: ECCurve, x: [UInt8], y: [UInt8], d: SecureBytes?)
    case okp(ed448: Bool, x: [UInt8], d: SecureBytes?)
    /// An X25519 key (JWK `kty` OKP, `crv` X25519; RFC 8037 §2): key agreement only.
    case x25519(x: [UInt8], d: SecureBytes?)
}

extension PKey {
    /// Builds a key from JWK components, checking that they form a valid key: RSA of at
    /// least 2048 bits with a sane exponent, an EC point on the named curve (coordinates of
    /// exactly the curve's size), matching private and public halves.
    package convenience init(components: KeyComponents) throws(CryptoError) {
        switch components {
        case .rsa(let n, let e, let privateParts):
            try self.init(rsaN: n, e: e, privateParts: privateParts)
        case .ec(let curve, let x, let y, let d):
            try self.init(curve: curve, x: x, y: y, d: d)
        case .okp(let ed448, let x, let d):
            try self.init(okpEd448: ed448, x: x, d: d)
        case .x25519(let x, let d):
            try self.init(rawType: EVP_PKEY_X25519, name: "X25519", size: 32, x: x, d: d)
        }
    }

    private convenience init(rsaN n: [UInt8], e: [UInt8], privateParts: RSAPrivateComponents?) throws(CryptoError) {
        guard n.first != 0, e.first != 0 else { throw CryptoError("RSA n and e must not have leading zero bytes") }
        let builder = try ParamBuilder()
        try builder.pushBigNum(OSSL_PKEY_PARAM_RSA_N, n)
        try builder.pushBigNum(OSSL_PKEY_PARAM_RSA_E, e)
        if let privateParts {
            try privateParts.d.withUnsafeBytes { bytes throws(CryptoError) in try builder.pushBigNum(OSSL_PKEY_PARAM_RSA_D, bytes) }
            if let f = privateParts.factors {
                for (name, value) in [
                    ("rsa-factor1", f.p), ("rsa-factor2", f.q),
                    ("rsa-exponent1", f.dp), ("rsa-exponent2", f.dq),
                    ("rsa-coefficient1", f.qi),
                ] {
                    try value.withUnsafeBytes { bytes throws(CryptoError) in try builder.pushBigNum(name, bytes) }
                }
            }
        }
        let key = try builder.makeKey(algorithm: "RSA", isPrivate: privateParts != nil)
        try self.init(taking: key, isPrivate: privateParts != nil)
        try checkConsistency()
    }

    /// Refuses EC coordinates that are not exactly `curve`'s size (JWK and JWE `epk` alike).
    static func checkCoordinates(_ x: [UInt8], _ y: [UInt8], on curve: ECCurve) throws(CryptoError) {
        let size = curve.coordinateSize
        guard x.count == size, y.count == size else {
            throw CryptoError("EC coordinates for \(curve.rawValue) must be exactly \(size) bytes")
        }
    }

    private convenience init(curve: ECCurve, x: [UInt8], y: [UInt8], d: SecureBytes?) throws(CryptoError) {
        try Self.checkCoordinates(x, y, on: curve)
        let size = curve.coordinateSize
        if let d, d.count != size { throw CryptoError("the EC private key for \(curve.rawValue) must be exactly \(size) bytes") }
        let builder = try ParamBuilder()
        try builder.pushString(OSSL_PKEY_PARAM_GROUP_NAME, curve.groupName)
        try builder.pushOctets(OSSL_PKEY_PARAM_PUB_KEY, [0x04] + x + y)
        if let d {
            try d.withUnsafeBytes { bytes throws(CryptoError) in try builder.pushBigNum(OSSL_PKEY_PARAM_PRIV_KEY, bytes) }
        }
        let key = try builder.makeKey(algorithm: "EC", isPrivate: d != nil)
        try self.init(taking: key, isPrivate: d != nil)
        try checkConsistency()
    }

    private convenience init(okpEd448: Bool, x: [UInt8], d: SecureBytes?) throws(CryptoError) {
        try self.init(rawType: okpEd448 ? EVP_PKEY_ED448 : EVP_PKEY_ED25519, name: okpEd448 ? "Ed448" : "Ed25519",
                      size: okpEd448 ? 57 : 32, x: x, d: d)
    }

    /// An OKP key (Ed25519, Ed448, X25519) from its raw public and optional private bytes.
    private convenience init(rawType type: Int32, name: String, size: Int, x: [UInt8], d: SecureBytes?) throws(CryptoError) {
        guard x.count == size else { throw CryptoError("an \(name) public key must be exactly \(size) bytes") }
        OpenSSLErrorQueue.clear()
        if let d {
            guard d.count == size else { throw CryptoError("an \(name) private key must be exactly \(size) bytes") }
            let key = d.withUnsafeBytes {
                EVP_PKEY_new_raw_private_key(type, nil, $0.baseAddress?.assumingMemoryBound(to: UInt8.self), $0.count)
            }
            guard let key else { throw .openSSL("invalid \(name) private key") }
            try self.init(taking: key, isPrivate: true)
            guard try rawPublicKey() == x else {
                throw CryptoError("the \(name) public key \"x\" does not match the private key \"d\"")
            }
        } else {
            let key = x.withUnsafeBufferPointer { EVP_PKEY_new_raw_public_key(type, nil, $0.baseAddress, $0.count) }
            guard let key else { throw .openSSL("invalid \(name) public key") }
            try self.init(taking: key, isPrivate: false)
        }
    }

    /// The key's components, for JWK export. Private parts only when `includePrivate` is
    /// true and the key has them.
    package func components(includePrivate: Bool) throws(CryptoError) -> KeyComponents {
        let withPrivate = includePrivate && isPrivate
        switch type {
        case .rsa, .rsaPSS:
            let n = try bigNumParam(OSSL_PKEY_PARAM_RSA_N)
            let e = try bigNumParam(OSSL_PKEY_PARAM_RSA_E)
            guard withPrivate else { return .rsa(n: n, e: e, privateParts: nil) }
            let d = SecureBytes(try bigNumParam(OSSL_PKEY_PARAM_RSA_D))
            var factors: (SecureBytes, SecureBytes, SecureBytes, SecureBytes, SecureBytes)?
            if let p = try? bigNumParam("rsa-factor1") {
                factors = (
                    SecureBytes(p), SecureBytes(try bigNumParam("rsa-factor2")),
                    SecureBytes(try bigNumParam("rsa-exponent1")),
                    SecureBytes(try bigNumParam("rsa-exponent2")),
                    SecureBytes(try bigNumParam("rsa-coefficient1")))
            }
            OpenSSLErrorQueue.clear()
            return .rsa(n: n, e: e, privateParts: RSAPrivateComponents(d: d, factors: factors.map { (p: $0.0, q: $0.1, dp: $0.2, dq: $0.3, qi: $0.4) }))
        case .ec(let curve):
            let point = try octetParam(OSSL_PKEY_PARAM_PUB_KEY, capacity: 1 + 2 * curve.coordinateSize)
            guard point.count == 1 + 2 * curve.coordinateSize, point.first == 0x04 else {
                throw CryptoError("unexpected EC point encoding")
            }
            let x = Array(point[1...curve.coordinateSize])
            let y = Array(point[(1 + curve.coordinateSize)...])
            guard withPrivate else { return .ec(curve: curve, x: x, y: y, d: nil) }
            let d = try bigNumParam(OSSL_PKEY_PARAM_PRIV_KEY, padTo: curve.coordinateSize)
            return .ec(curve: curve, x: x, y: y, d: SecureBytes(d))
        case .ed25519, .ed448:
            let x = try rawPublicKey()
            guard withPrivate else { return .okp(ed448: type == .ed448, x: x, d: nil) }
            return .okp(ed448: type == .ed448, x: x, d: try rawPrivateKey())
        case .x25519:
            let x = try rawPublicKey()
            guard withPrivate else { return .x25519(x: x, d: nil) }
            return .x25519(x: x, d: try rawPrivateKey())
        }
    }

    private func bigNumParam(_ name: String, padTo size: Int? = nil) throws(CryptoError) -> [UInt8] {
        var bn: OpaquePointer?
        OpenSSLErrorQueue.clear()
        guard EVP_PKEY_get_bn_param(pointer, name, &bn) == 1, let bn else { throw .openSSL("the key has no \(name)") }
        defer { BN_clear_free(bn) }
        let length = size ?? Int((BN_num_bits(bn) + 7) / 8)
        var out = [UInt8](repeating: 0, count: max(length, 1))
        let written = out.withUnsafeMutableBufferPointer { BN_bn2binpad(bn, $0.baseAddress, Int32(length)) }
        guard written >= 0 else { throw CryptoError("the key's \(name) does not fit") }
        return length == 0 ? [0] : out
    }

    private func octetParam(_ name: String, capacity: Int) throws(CryptoError) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: capacity)
        var length = 0
        OpenSSLErrorQueue.clear()
        guard EVP_PKEY_get_octet_string_param(pointer, name, &out, out.count, &length) == 1 else {
            throw .openSSL("the key has no \(name)")
        }
        return Array(out.prefix(length))
    }

    func rawPublicKey() throws(CryptoError) -> [UInt8] { try Self.rawPublicKey(of: pointer) }

    /// The raw public key of an Ed25519/Ed448 `EVP_PKEY` (for a private key, the public half
    /// OpenSSL derived from it).
    static func rawPublicKey(of pointer: OpaquePointer) throws(CryptoError) -> [UInt8] {
        var length = 0
        OpenSSLErrorQueue.clear()
        guard EVP_PKEY_get_raw_public_key(pointer, nil, &length) == 1 else { throw .openSSL("cannot read the raw public key") }
        var out = [UInt8](repeating: 0, count: length)
        guard EVP_PKEY_get_raw_public_key(pointer, &out, &length) == 1 else { throw .openSSL("cannot read the raw public key") }
        return Array(out.prefix(length))
    }

    private func rawPrivateKey() throws(CryptoError) -> SecureBytes {
        var length = 0
        OpenSSLErrorQueue.clear()
        guard EVP_PKEY_get_raw_private_key(pointer, nil, &length) == 1 else { throw .openSSL("cannot read the raw private key") }
        let key = pointer
        do {
            return try SecureBytes(count: length) { buffer in
                var written = length
                guard EVP_PKEY_get_raw_private_key(key, buffer.baseAddress?.assumingMemoryBound(to: UInt8.self), &written) == 1 else {
                    throw CryptoError.openSSL("cannot read the raw private key")
                }
            }
        } catch let error as CryptoError {
            throw error
        } catch {
            throw CryptoError("cannot read the raw private key")
        }
    }
}

/// An owned `OSSL_PARAM_BLD` plus the big numbers pushed into it (which must outlive it).
private final class ParamBuilder {
    private let builder: OpaquePointer
    private var bigNums: [OpaquePointer] = []
    /// C strings and octet buffers the builder points to (freed in `deinit`, after it).
    private var strings: [UnsafeMutablePointer<CChar>] = []

    init() throws(CryptoError) {
        OpenSSLErrorQueue.clear()
        guard let builder = OSSL_PARAM_BLD_new() else { throw .openSSL("cannot allocate key parameters") }
        self.builder = builder
    }

    deinit {
        OSSL_PARAM_BLD_free(builder)
        for bn in bigNums { BN_clear_free(bn) }
        for s in strings { free(s) }
    }

    func pushBigNum(_ name: String, _ bytes: [UInt8]) throws(CryptoError) {
        let failure = bytes.withUnsafeBytes { buffer -> CryptoError? in
            do throws(CryptoError) { try pushBigNum(name, buffer); return nil } catch { return error }
        }
        if let failure { throw failure }
    }

    func pushBigNum(_ name: String, _ bytes: UnsafeRawBufferPointer) throws(CryptoError) {
        guard !bytes.isEmpty else { throw CryptoError("key parameter \(name) is empty") }
        guard let bn = BN_bin2bn(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(bytes.count), nil) else {
            throw .openSSL("cannot read key parameter \(name)")
        }
        bigNums.append(bn)
        guard OSSL_PARAM_BLD_push_BN(builder, try retained(name), bn) == 1 else { throw .openSSL("cannot set key parameter \(name)") }
    }

    /// A C copy of `name` that lives as long as the builder: OSSL_PARAM_BLD keeps the key
    /// pointer it is given (it expects static strings) until the parameters are built.
    private func retained(_ name: String) throws(CryptoError) -> UnsafeMutablePointer<CChar> {
        guard let copy = strdup(name) else { throw CryptoError("out of memory") }
        strings.append(copy)
        return copy
    }

    func pushString(_ name: String, _ value: String) throws(CryptoError) {
        guard let copy = strdup(value) else { throw CryptoError("out of memory") }
        strings.append(copy)
        guard OSSL_PARAM_BLD_push_utf8_string(builder, try retained(name), copy, 0) == 1 else { throw .openSSL("cannot set key parameter \(name)") }
    }

    /// OSSL_PARAM_BLD keeps the pointer to `value` until the parameters are built, so the
    /// bytes are copied into storage that lives as long as the builder (passing the array's
    /// own buffer was a use-after-free, found by the key-loading fuzz target under ASan).
    func pushOctets(_ name: String, _ value: [UInt8]) throws(CryptoError) {
        let key = try retained(name)
        guard let copy = malloc(max(value.count, 1)) else { throw CryptoError("out of memory") }
        strings.append(copy.assumingMemoryBound(to: CChar.self))
        value.withUnsafeBytes { if let base = $0.baseAddress { copy.copyMemory(from: base, byteCount: $0.count) } }
        guard OSSL_PARAM_BLD_push_octet_string(builder, key, copy, value.count) == 1 else {
            throw .openSSL("cannot set key parameter \(name)")
        }
    }

    /// Builds an EVP_PKEY of `algorithm` from the pushed parameters; the caller owns it.
    func makeKey(algorithm: String, isPrivate: Bool) throws(CryptoError) -> OpaquePointer {
        OpenSSLErrorQueue.clear()
        guard let params = OSSL_PARAM_BLD_to_param(builder) else { throw .openSSL("cannot build key parameters") }
        defer { OSSL_PARAM_free(params) }
        guard let ctx = EVP_PKEY_CTX_new_from_name(nil, algorithm, nil) else { throw .openSSL("OpenSSL has no \(algorithm)") }
        defer { EVP_PKEY_CTX_free(ctx) }
        var key: OpaquePointer?
        let selection = isPrivate ? tokenkit_EVP_PKEY_KEYPAIR() : tokenkit_EVP_PKEY_PUBLIC_KEY()
        guard EVP_PKEY_fromdata_init(ctx) == 1, EVP_PKEY_fromdata(ctx, &key, selection, params) == 1, let key else {
            throw .openSSL("invalid \(algorithm) key parameters")
        }
        return key
    }
}
