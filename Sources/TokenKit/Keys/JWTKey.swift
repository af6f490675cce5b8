internal import TokenKitCrypto

/// A key for signing or verifying JWTs, bound to the algorithms it may be used with.
///
/// The binding is the algorithm-confusion defence: an HMAC secret only ever serves HS*
/// algorithms and an asymmetric key only the algorithms of its type (RS*/PS* for RSA,
/// ES256/ES384/ES512/ES256K for its curve, EdDSA for Ed25519/Ed448). A JWK's own `alg`,
/// `use` and `key_ops` narrow this further. RSA keys under 2048 bits and HMAC secrets
/// shorter than the hash output are refused.
///
/// Thread-safe: a key is immutable and may be shared by any number of tasks. Key material
/// is never shown by `description` or in errors; HMAC secrets are wiped from memory when
/// the last copy of the key is released.
public struct JWTKey: Sendable, CustomStringConvertible {
    enum Material: Sendable {
        case hmac(HMACSecret)
        case asymmetric(PKey)
    }

    let material: Material
    /// The key ID (`kid`), if any.
    public let keyID: String?
    /// The algorithms this key may be used with (never empty).
    public let algorithms: Set<JWTAlgorithm>
    /// Whether a JWK's `use`/`key_ops` allow verifying with this key.
    let mayVerify: Bool
    /// Whether a JWK's `use`/`key_ops` allow signing with this key.
    let maySign: Bool

    init(material: Material, keyID: String?, algorithms: Set<JWTAlgorithm>, mayVerify: Bool = true, maySign: Bool = true) {
        self.material = material
        self.keyID = keyID
        self.algorithms = algorithms
        self.mayVerify = mayVerify
        self.maySign = maySign
    }

    /// The JWK key type: `"RSA"`, `"EC"`, `"OKP"` or `"oct"` (HMAC).
    public var keyType: String {
        switch material {
        case .hmac: "oct"
        case .asymmetric(let key):
            switch key.type {
            case .rsa, .rsaPSS: "RSA"
            case .ec: "EC"
            case .ed25519, .ed448, .x25519: "OKP"
            }
        }
    }

    /// Whether the key can sign: an HMAC secret or an asymmetric private key.
    public var canSign: Bool {
        switch material {
        case .hmac: maySign
        case .asymmetric(let key): key.isPrivate && maySign
        }
    }

    /// Whether this key holds secret material (an HMAC secret or a private key).
    public var isSecret: Bool {
        switch material {
        case .hmac: true
        case .asymmetric(let key): key.isPrivate
        }
    }

    public var description: String {
        let kind: String
        switch material {
        case .hmac(let secret): kind = "HMAC secret (\(secret.length) bytes)"
        case .asymmetric(let key): kind = "\(key.type) \(key.isPrivate ? "private" : "public") key"
        }
        return "JWTKey(\(kind)\(keyID.map { ", kid \"\($0)\"" } ?? ""), algorithms: \(algorithms.sorted().map(\.name).joined(separator: ",")))"
    }

    // MARK: Creating keys

    /// An HMAC key from raw secret bytes.
    ///
    /// - Parameters:
    ///   - secret: at least 32 bytes; HS384 needs 48 and HS512 64 (RFC 7518 §3.2).
    ///   - keyID: the `kid` to put in headers and match on verification.
    ///   - algorithms: narrows the HS algorithms the key may be used with.
    /// - Throws: ``JWTError/Code/invalidKey`` when the secret is too short for every
    ///   requested algorithm.
    public static func hmac(
        secret: some Collection<UInt8>, keyID: String? = nil, algorithms: Set<JWTAlgorithm>? = nil
    ) throws(JWTError) -> JWTKey {
        let fitting = JWTAlgorithm.hmacAlgorithms(secretLength: secret.count)
        guard !fitting.isEmpty else {
            throw .invalidKey("HMAC secret of \(secret.count) bytes is too short (HS256 needs at least 32 bytes)")
        }
        let allowed = try narrow(fitting, to: algorithms, what: "an HMAC secret of \(secret.count) bytes")
        return JWTKey(material: .hmac(try HMACSecret(secret, algorithms: allowed)), keyID: keyID, algorithms: allowed)
    }

    /// A key from PEM: `PRIVATE KEY` (PKCS#8), `RSA PRIVATE KEY`, `EC PRIVATE KEY`,
    /// `PUBLIC KEY` (SPKI), `RSA PUBLIC KEY`, or `CERTIFICATE` (its public key; the
    /// certificate's validity, chain and revocation are NOT checked).
    public init(pem: String, keyID: String? = nil, algorithms: Set<JWTAlgorithm>? = nil) throws(JWTError) {
        let key: PKey
        do { key = try PKey(pem: pem) } catch { throw .invalidKey("cannot read PEM key", cause: error) }
        let fitting = JWTAlgorithm.algorithms(for: key.type)
        guard !fitting.isEmpty else { throw .invalidKey("an \(key.type) key cannot sign or verify (it is for JWE key agreement: use JWEKey)") }
        self.init(material: .asymmetric(key), keyID: keyID,
                  algorithms: try Self.narrow(fitting, to: algorithms, what: "a \(key.type) key"))
    }

    /// Generates a new key for `algorithm`: a random secret as long as the hash output for
    /// HS*, RSA 2048 (or `rsaBits`) for RS*/PS*, the algorithm's curve for ES*, Ed25519 for
    /// EdDSA. The key is bound to the algorithms that fit it.
    public static func generate(for algorithm: JWTAlgorithm, keyID: String? = nil, rsaBits: Int = 2048) throws(JWTError) -> JWTKey {
        if algorithm.isHMAC {
            let secret: SecureBytes
            do { secret = try RandomBytes.generateSecret(count: algorithm.digest.size) } catch {
                throw .invalidKey("cannot generate a secret", cause: error)
            }
            return try secret.withUnsafeBytes { bytes throws(JWTError) in try hmac(secret: bytes, keyID: keyID) }
        }
        let type: AsymmetricKeyType
        switch algorithm {
        case .es256: type = .ec(.p256)
        case .es384: type = .ec(.p384)
        case .es512: type = .ec(.p521)
        case .es256k: type = .ec(.secp256k1)
        case .eddsa: type = .ed25519
        default: type = .rsa
        }
        do {
            let key = try PKey.generate(type, rsaBits: rsaBits)
            return JWTKey(material: .asymmetric(key), keyID: keyID, algorithms: JWTAlgorithm.algorithms(for: type))
        } catch {
            throw .invalidKey("cannot generate a \(type) key", cause: error)
        }
    }

    /// Generates an Ed448 key (EdDSA); ``generate(for:keyID:rsaBits:)`` picks Ed25519.
    public static func generateEd448(keyID: String? = nil) throws(JWTError) -> JWTKey {
        do {
            return JWTKey(material: .asymmetric(try PKey.generate(.ed448)), keyID: keyID, algorithms: [.eddsa])
        } catch {
            throw .invalidKey("cannot generate an Ed448 key", cause: error)
        }
    }

    // MARK: Deriving keys

    /// The public half (HMAC keys have none: throws).
    public func publicKey() throws(JWTError) -> JWTKey {
        switch material {
        case .hmac: throw .invalidKey("an HMAC secret has no public key")
        case .asymmetric(let key):
            do {
                return JWTKey(material: .asymmetric(try key.publicKey()), keyID: keyID, algorithms: algorithms,
                              mayVerify: mayVerify, maySign: false)
            } catch { throw .invalidKey("cannot derive the public key", cause: error) }
        }
    }

    /// The same key restricted to `algorithms` (which must all fit it).
    public func restricted(to algorithms: Set<JWTAlgorithm>) throws(JWTError) -> JWTKey {
        JWTKey(material: material, keyID: keyID,
               algorithms: try Self.narrow(self.algorithms, to: algorithms, what: "this key"),
               mayVerify: mayVerify, maySign: maySign)
    }

    /// The same key with another `kid`.
    public func withKeyID(_ keyID: String?) -> JWTKey {
        JWTKey(material: material, keyID: keyID, algorithms: algorithms, mayVerify: mayVerify, maySign: maySign)
    }

    // MARK: Exporting

    /// The private key as PKCS#8 PEM. The result is secret: keep it out of logs and argv.
    public func privateKeyPEM() throws(JWTError) -> String {
        guard case .asymmetric(let key) = material else { throw .invalidKey("an HMAC secret has no PEM form") }
        do { return try key.pkcs8PEM() } catch { throw .invalidKey("cannot export the private key", cause: error) }
    }

    /// The public key as SPKI PEM.
    public func publicKeyPEM() throws(JWTError) -> String {
        guard case .asymmetric(let key) = material else { throw .invalidKey("an HMAC secret has no public key") }
        do { return try key.publicPEM() } catch { throw .invalidKey("cannot export the public key", cause: error) }
    }

    static func narrow(_ fitting: Set<JWTAlgorithm>, to requested: Set<JWTAlgorithm>?, what: String) throws(JWTError) -> Set<JWTAlgorithm> {
        guard let requested else { return fitting }
        let misfits = requested.subtracting(fitting)
        guard misfits.isEmpty, !requested.isEmpty else {
            let names = (requested.isEmpty ? ["(none)"] : misfits.sorted().map(\.name)).joined(separator: ", ")
            throw JWTError(code: .algorithmNotAllowed, reason: "\(what) cannot be used with \(names)")
        }
        return requested
    }
}

/// An HMAC secret with one ready OpenSSL context per allowed algorithm.
final class HMACSecret: Sendable {
    let keys: [JWTAlgorithm: HMACKey]
    let length: Int
    /// `keys[.hs256]`, `keys[.hs384]`, `keys[.hs512]` as stored constants, so that checking a
    /// MAC borrows the key instead of iterating the dictionary and retaining what it finds
    /// (a write to a reference count shared by every thread verifying with this secret).
    private let hs256: HMACKey?, hs384: HMACKey?, hs512: HMACKey?

    /// `keys[algorithm]` without hashing (at most three entries).
    func key(for algorithm: JWTAlgorithm) -> HMACKey? {
        for (candidate, key) in keys where candidate.name == algorithm.name { return key }
        return nil
    }

    /// Whether `mac` is the MAC of `data` under `algorithm` (constant-time comparison);
    /// `nil` when this secret may not be used with `algorithm`.
    @inline(__always)
    func isValid(_ mac: some ContiguousBytesLike, for data: some ContiguousBytesLike, algorithm: JWTAlgorithm) -> Bool? {
        switch algorithm {
        case .hs256: hs256?.isValid(mac, for: data)
        case .hs384: hs384?.isValid(mac, for: data)
        case .hs512: hs512?.isValid(mac, for: data)
        default: nil
        }
    }

    init(_ secret: some Collection<UInt8>, algorithms: Set<JWTAlgorithm>) throws(JWTError) {
        let bytes = SecureBytes(secret)
        var keys: [JWTAlgorithm: HMACKey] = [:]
        for algorithm in algorithms {
            do { keys[algorithm] = try HMACKey(secret: bytes, digest: algorithm.digest) } catch {
                throw .invalidKey("cannot set up \(algorithm)", cause: error)
            }
        }
        self.keys = keys
        self.length = bytes.count
        hs256 = keys[.hs256]
        hs384 = keys[.hs384]
        hs512 = keys[.hs512]
    }

    func withSecretBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        guard let any = keys.values.first else { return try body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        return try any.withSecretBytes(body)
    }
}
