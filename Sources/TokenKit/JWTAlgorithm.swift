internal import TokenKitCrypto

/// A JWS signature algorithm (RFC 7518 §3, RFC 8037, RFC 8812). `none` does not exist here:
/// an unsecured token can be neither made nor accepted.
public struct JWTAlgorithm: Hashable, Sendable, CustomStringConvertible, Comparable {
    /// The `alg` header value, e.g. `"RS256"`.
    public let name: String

    private init(_ name: String) { self.name = name }

    /// The algorithm named `name` (case-sensitive, as in the `alg` header); `nil` when
    /// TokenKit does not implement it.
    public init?(name: String) {
        guard let known = Self.all.first(where: { $0.name.isByteIdentical(to: name) }) else { return nil }
        self = known
    }

    /// HMAC with SHA-256.
    public static let hs256 = JWTAlgorithm("HS256")
    /// HMAC with SHA-384.
    public static let hs384 = JWTAlgorithm("HS384")
    /// HMAC with SHA-512.
    public static let hs512 = JWTAlgorithm("HS512")
    /// RSASSA-PKCS1-v1_5 with SHA-256.
    public static let rs256 = JWTAlgorithm("RS256")
    /// RSASSA-PKCS1-v1_5 with SHA-384.
    public static let rs384 = JWTAlgorithm("RS384")
    /// RSASSA-PKCS1-v1_5 with SHA-512.
    public static let rs512 = JWTAlgorithm("RS512")
    /// RSASSA-PSS with SHA-256 (MGF1 SHA-256, 32-byte salt).
    public static let ps256 = JWTAlgorithm("PS256")
    /// RSASSA-PSS with SHA-384 (MGF1 SHA-384, 48-byte salt).
    public static let ps384 = JWTAlgorithm("PS384")
    /// RSASSA-PSS with SHA-512 (MGF1 SHA-512, 64-byte salt).
    public static let ps512 = JWTAlgorithm("PS512")
    /// ECDSA on P-256 with SHA-256.
    public static let es256 = JWTAlgorithm("ES256")
    /// ECDSA on P-384 with SHA-384.
    public static let es384 = JWTAlgorithm("ES384")
    /// ECDSA on P-521 with SHA-512.
    public static let es512 = JWTAlgorithm("ES512")
    /// ECDSA on secp256k1 with SHA-256 (RFC 8812).
    public static let es256k = JWTAlgorithm("ES256K")
    /// EdDSA with Ed25519 or Ed448, chosen by the key (RFC 8037).
    public static let eddsa = JWTAlgorithm("EdDSA")

    /// Every algorithm TokenKit implements.
    public static let all: [JWTAlgorithm] = [
        .hs256, .hs384, .hs512, .rs256, .rs384, .rs512, .ps256, .ps384, .ps512,
        .es256, .es384, .es512, .es256k, .eddsa,
    ]

    /// Whether this is an HMAC algorithm (HS*), i.e. uses a shared secret.
    public var isHMAC: Bool { name.hasPrefix("HS") }

    public var description: String { name }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        (all.firstIndex(of: lhs) ?? 0) < (all.firstIndex(of: rhs) ?? 0)
    }

    /// The digest HS/RS/PS/ES algorithms use.
    var digest: MessageDigest {
        switch name {
        case "HS384", "RS384", "PS384", "ES384": .sha384
        case "HS512", "RS512", "PS512", "ES512": .sha512
        default: .sha256
        }
    }

    /// The signature scheme for asymmetric algorithms (`nil` for HMAC).
    var scheme: SignatureScheme? {
        switch name.prefix(2) {
        case "RS": .rsaPKCS1(digest)
        case "PS": .rsaPSS(digest)
        case "ES": .ecdsa(digest)
        case "Ed": .eddsa
        default: nil
        }
    }

    /// The algorithms an asymmetric key of `type` can be used with.
    static func algorithms(for type: AsymmetricKeyType) -> Set<JWTAlgorithm> {
        switch type {
        case .rsa: [.rs256, .rs384, .rs512, .ps256, .ps384, .ps512]
        case .rsaPSS: [.ps256, .ps384, .ps512]
        case .ec(.p256): [.es256]
        case .ec(.p384): [.es384]
        case .ec(.p521): [.es512]
        case .ec(.secp256k1): [.es256k]
        case .ed25519, .ed448: [.eddsa]
        case .x25519: []  // key agreement only (JWE); refused as a JWS key
        }
    }

    /// The HMAC algorithms a secret of `length` bytes may be used with (RFC 7518 §3.2: a key
    /// at least as long as the hash output).
    static func hmacAlgorithms(secretLength length: Int) -> Set<JWTAlgorithm> {
        var set: Set<JWTAlgorithm> = []
        if length >= 32 { set.insert(.hs256) }
        if length >= 48 { set.insert(.hs384) }
        if length >= 64 { set.insert(.hs512) }
        return set
    }
}

extension Set where Element == JWTAlgorithm {
    /// Membership without hashing for the usual one-to-three-element sets (hot path of
    /// verification); falls back to the hash lookup for larger sets. Walks indices rather
    /// than an iterator, which would retain the set's storage: a write to a reference count
    /// that every thread verifying with the same verifier shares.
    @inline(__always)
    func containsFast(_ algorithm: JWTAlgorithm) -> Bool {
        if count <= 4 {
            var i = startIndex
            while i != endIndex {
                if self[i].name == algorithm.name { return true }
                formIndex(after: &i)
            }
            return false
        }
        return contains(algorithm)
    }
}
