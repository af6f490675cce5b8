internal import TokenKitCrypto

/// A key for JWE (RFC 7516): the recipient's key pair (RSA, EC on P-256/P-384/P-521, X25519)
/// or a shared secret (AES key wrap, `dir`), bound to the key management algorithms it fits.
///
/// The binding is the key/algorithm-mismatch defence: an RSA key serves only RSA-OAEP and
/// RSA-OAEP-256, an EC or X25519 key only the ECDH-ES family, a 16-, 24- or 32-byte secret
/// only A128KW/A192KW/A256KW and `dir` (whose `enc` must then have the secret's length). A
/// JWK's `alg`, `use` and `key_ops` narrow this further. Every asymmetric key passes
/// TokenKit's key admission (RSA of at least 2048 bits without the ROCA fingerprint, points on
/// their curve); keys that only sign (Ed25519, Ed448, secp256k1, RSA-PSS) are refused.
///
/// Thread-safe and immutable. Key material never appears in `description` or in errors;
/// secrets are wiped from memory when the last copy is released.
public struct JWEKey: Sendable, CustomStringConvertible {
    enum Material: Sendable {
        case asymmetric(PKey)
        case symmetric(SecureBytes)
    }

    let material: Material
    /// The key ID (`kid`), if any.
    public let keyID: String?
    /// The key management algorithms this key may be used with (never empty).
    public let algorithms: Set<JWEKeyAlgorithm>
    /// Whether a JWK's `key_ops` allow decrypting (unwrapping, deriving) with this key.
    let mayDecrypt: Bool
    /// Whether a JWK's `key_ops` allow encrypting (wrapping, deriving) to this key.
    let mayEncrypt: Bool

    init(material: Material, keyID: String?, algorithms: Set<JWEKeyAlgorithm>, mayDecrypt: Bool = true, mayEncrypt: Bool = true) {
        self.material = material
        self.keyID = keyID
        self.algorithms = algorithms
        self.mayDecrypt = mayDecrypt
        self.mayEncrypt = mayEncrypt
    }

    /// The JWK key type: `"RSA"`, `"EC"`, `"OKP"` (X25519) or `"oct"` (a shared secret).
    public var keyType: String {
        switch material {
        case .symmetric: "oct"
        case .asymmetric(let key):
            switch key.type {
            case .ec: "EC"
            case .x25519, .ed25519, .ed448: "OKP"
            case .rsa, .rsaPSS: "RSA"
            }
        }
    }

    /// Whether the key holds secret material (a shared secret or a private key): what
    /// decryption needs.
    public var isSecret: Bool {
        switch material {
        case .symmetric: true
        case .asymmetric(let key): key.isPrivate
        }
    }

    public var description: String {
        let kind: String
        switch material {
        case .symmetric(let secret): kind = "shared secret (\(secret.count) bytes)"
        case .asymmetric(let key): kind = "\(key.type) \(key.isPrivate ? "private" : "public") key"
        }
        let names = algorithms.map(\.name).sorted().joined(separator: ",")
        return "JWEKey(\(kind)\(keyID.map { ", kid \"\($0)\"" } ?? ""), algorithms: \(names))"
    }

    // MARK: Creating keys

    /// A shared secret for AES key wrap (16, 24 or 32 bytes: A128KW, A192KW, A256KW) or `dir`
    /// (the length of the `enc`'s key: 16, 24, 32, 48 or 64 bytes).
    ///
    /// - Throws: ``JWTError/Code/invalidKey`` for any other length.
    public static func symmetric(secret: some Collection<UInt8>, keyID: String? = nil) throws(JWTError) -> JWEKey {
        let algorithms = fitting(secretLength: secret.count)
        guard !algorithms.isEmpty else {
            throw .invalidKey("a JWE secret of \(secret.count) bytes fits no algorithm (A128KW/A192KW/A256KW take 16/24/32 bytes, dir the enc's key length)")
        }
        return JWEKey(material: .symmetric(SecureBytes(secret)), keyID: keyID, algorithms: algorithms)
    }

    /// A key from PEM: a private key (`PRIVATE KEY`, `RSA PRIVATE KEY`, `EC PRIVATE KEY`) to
    /// decrypt, or a public key (`PUBLIC KEY`, `RSA PUBLIC KEY`, `CERTIFICATE` — whose
    /// validity is NOT checked) to encrypt to.
    public init(pem: String, keyID: String? = nil) throws(JWTError) {
        let key: PKey
        do { key = try PKey(pem: pem) } catch { throw .invalidKey("cannot read PEM key", cause: error) }
        self.init(material: .asymmetric(key), keyID: keyID, algorithms: try Self.fitting(key))
    }

    /// Generates a key: an RSA key of `rsaBits` (at least 2048) for RSA-OAEP*, a key on the
    /// algorithm's curve for ECDH-ES* (`curve`, default P-256), or a random secret of the
    /// right length for A*KW (for `dir`, use ``symmetric(secret:keyID:)`` with a secret as
    /// long as the `enc`'s key).
    public static func generate(
        for algorithm: JWEKeyAlgorithm, curve: JWECurve = .p256, keyID: String? = nil, rsaBits: Int = 2048
    ) throws(JWTError) -> JWEKey {
        let type: AsymmetricKeyType
        switch algorithm.family {
        case .aesKeyWrap(let bytes):
            let secret: SecureBytes
            do { secret = try RandomBytes.generateSecret(count: bytes) } catch { throw .invalidKey("cannot generate a secret", cause: error) }
            return JWEKey(material: .symmetric(secret), keyID: keyID, algorithms: fitting(secretLength: bytes))
        case .direct: throw .invalidKey("dir keys are secrets as long as the enc's key: use JWEKey.symmetric(secret:)")
        case .rsaOAEP: type = .rsa
        case .ecdhES: type = curve.keyType
        }
        let key: PKey
        do { key = try PKey.generate(type, rsaBits: rsaBits) } catch { throw .invalidKey("cannot generate a \(type) key", cause: error) }
        return JWEKey(material: .asymmetric(key), keyID: keyID, algorithms: try fitting(key))
    }

    // MARK: Deriving and exporting

    /// The public half, to encrypt to (a shared secret has none: throws).
    public func publicKey() throws(JWTError) -> JWEKey {
        guard case .asymmetric(let key) = material else { throw .invalidKey("a shared secret has no public key") }
        do {
            return JWEKey(material: .asymmetric(try key.publicKey()), keyID: keyID, algorithms: algorithms,
                          mayDecrypt: false, mayEncrypt: mayEncrypt)
        } catch { throw .invalidKey("cannot derive the public key", cause: error) }
    }

    /// The public key as SPKI PEM.
    public func publicKeyPEM() throws(JWTError) -> String {
        guard case .asymmetric(let key) = material else { throw .invalidKey("a shared secret has no public key") }
        do { return try key.publicPEM() } catch { throw .invalidKey("cannot export the public key", cause: error) }
    }

    /// The private key as PKCS#8 PEM. The result is secret: keep it out of logs and argv.
    public func privateKeyPEM() throws(JWTError) -> String {
        guard case .asymmetric(let key) = material else { throw .invalidKey("a shared secret has no PEM form") }
        do { return try key.pkcs8PEM() } catch { throw .invalidKey("cannot export the private key", cause: error) }
    }

    // MARK: Fitting algorithms

    /// The algorithms an asymmetric key fits; throws for key types JWE does not use.
    static func fitting(_ key: PKey) throws(JWTError) -> Set<JWEKeyAlgorithm> {
        switch key.type {
        case .rsa: return [.rsaOAEP, .rsaOAEP256]
        case .ec(.p256), .ec(.p384), .ec(.p521), .x25519: return [.ecdhES, .ecdhESA128KW, .ecdhESA192KW, .ecdhESA256KW]
        case .ec(.secp256k1): throw .invalidKey("a secp256k1 key has no JWE algorithm (ECDH-ES uses P-256, P-384, P-521 and X25519)")
        case .rsaPSS: throw .invalidKey("an RSA-PSS key only signs; RSA-OAEP needs an rsaEncryption key")
        case .ed25519, .ed448: throw .invalidKey("an \(key.type) key only signs; JWE ECDH-ES uses X25519")
        }
    }

    /// The algorithms a shared secret of `length` bytes fits.
    static func fitting(secretLength length: Int) -> Set<JWEKeyAlgorithm> {
        var algorithms: Set<JWEKeyAlgorithm> = []
        switch length {
        case 16: algorithms.insert(.a128KW)
        case 24: algorithms.insert(.a192KW)
        case 32: algorithms.insert(.a256KW)
        default: break
        }
        if JWEContentEncryption.all.contains(where: { $0.keyByteCount == length }) { algorithms.insert(.direct) }
        return algorithms
    }

    /// Refuses `algorithm` (and, for `dir`, `encryption`) when they do not fit this key.
    func check(_ algorithm: JWEKeyAlgorithm, _ encryption: JWEContentEncryption) throws(JWTError) {
        guard algorithms.contains(algorithm) else {
            let allowed = algorithms.map(\.name).sorted().joined(separator: ", ")
            throw JWTError(code: .algorithmNotAllowed, reason: "the key (\(keyType)) cannot be used with \(algorithm) (it fits \(allowed))")
        }
        if algorithm == .direct, case .symmetric(let secret) = material, secret.count != encryption.keyByteCount {
            throw JWTError(code: .algorithmNotAllowed,
                           reason: "a dir secret of \(secret.count) bytes cannot be used with \(encryption) (it needs \(encryption.keyByteCount) bytes)")
        }
    }
}

/// The curves JWE's ECDH-ES uses (RFC 7518 §6.2.1.1, RFC 8037 §3.2).
public struct JWECurve: Hashable, Sendable, CustomStringConvertible {
    /// The JWK `crv` name.
    public let name: String
    let keyType: AsymmetricKeyType

    private init(_ name: String, _ keyType: AsymmetricKeyType) {
        self.name = name
        self.keyType = keyType
    }

    /// NIST P-256.
    public static let p256 = JWECurve("P-256", .ec(.p256))
    /// NIST P-384.
    public static let p384 = JWECurve("P-384", .ec(.p384))
    /// NIST P-521.
    public static let p521 = JWECurve("P-521", .ec(.p521))
    /// X25519 (RFC 7748).
    public static let x25519 = JWECurve("X25519", .x25519)

    /// Every curve ECDH-ES uses here.
    public static let all: [JWECurve] = [.p256, .p384, .p521, .x25519]

    /// The curve named `name` (the JWK `crv`, exact); `nil` for any other.
    public init?(name: String) {
        guard let known = Self.all.first(where: { $0.name.isByteIdentical(to: name) }) else { return nil }
        self = known
    }

    public var description: String { name }
}
