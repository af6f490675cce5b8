internal import TokenKitCrypto
internal import TokenKitPrimitives

/// A JWS signature algorithm (RFC 7518 §3, RFC 8037, RFC 8812). `none` does not exist here:
/// an unsecured token can be neither made nor accepted.
public struct JWTAlgorithm: Hashable, Sendable, CustomStringConvertible, Comparable {
    /// The `alg` header value, e.g. `"RS256"`.
    public let name: String
    /// The algorithm's position in ``all``: its identity. Every value comes from that fixed
    /// list, so algorithms compare, hash and order by it, never by `String ==` on the name.
    private let id: UInt8

    private init(_ name: String, _ id: UInt8) {
        self.name = name
        self.id = id
    }

    /// The algorithm named exactly `name` (byte for byte, as in the `alg` header: no case
    /// folding, no Unicode normalisation); `nil` when TokenKit does not implement it.
    public init?(name: String) {
        guard let known = Self.all.first(where: { $0.name.isByteIdentical(to: name) }) else { return nil }
        self = known
    }

    /// HMAC with SHA-256.
    public static let hs256 = JWTAlgorithm("HS256", 0)
    /// HMAC with SHA-384.
    public static let hs384 = JWTAlgorithm("HS384", 1)
    /// HMAC with SHA-512.
    public static let hs512 = JWTAlgorithm("HS512", 2)
    /// RSASSA-PKCS1-v1_5 with SHA-256.
    public static let rs256 = JWTAlgorithm("RS256", 3)
    /// RSASSA-PKCS1-v1_5 with SHA-384.
    public static let rs384 = JWTAlgorithm("RS384", 4)
    /// RSASSA-PKCS1-v1_5 with SHA-512.
    public static let rs512 = JWTAlgorithm("RS512", 5)
    /// RSASSA-PSS with SHA-256 (MGF1 SHA-256, 32-byte salt).
    public static let ps256 = JWTAlgorithm("PS256", 6)
    /// RSASSA-PSS with SHA-384 (MGF1 SHA-384, 48-byte salt).
    public static let ps384 = JWTAlgorithm("PS384", 7)
    /// RSASSA-PSS with SHA-512 (MGF1 SHA-512, 64-byte salt).
    public static let ps512 = JWTAlgorithm("PS512", 8)
    /// ECDSA on P-256 with SHA-256.
    public static let es256 = JWTAlgorithm("ES256", 9)
    /// ECDSA on P-384 with SHA-384.
    public static let es384 = JWTAlgorithm("ES384", 10)
    /// ECDSA on P-521 with SHA-512.
    public static let es512 = JWTAlgorithm("ES512", 11)
    /// ECDSA on secp256k1 with SHA-256 (RFC 8812).
    public static let es256k = JWTAlgorithm("ES256K", 12)
    /// EdDSA with Ed25519 or Ed448, chosen by the key (RFC 8037).
    public static let eddsa = JWTAlgorithm("EdDSA", 13)

    /// Every algorithm TokenKit implements.
    public static let all: [JWTAlgorithm] = [
        .hs256, .hs384, .hs512, .rs256, .rs384, .rs512, .ps256, .ps384, .ps512,
        .es256, .es384, .es512, .es256k, .eddsa,
    ]

    /// Whether this is an HMAC algorithm (HS*), i.e. uses a shared secret.
    public var isHMAC: Bool { id <= JWTAlgorithm.hs512.id }

    /// The `alg` name.
    public var description: String { name }

    /// Equal when they are the same algorithm (the same entry of ``all``).
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.id == rhs.id }

    /// Hashes the algorithm's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }

    /// The order of ``all``.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.id < rhs.id }

    /// The digest HS/RS/PS/ES algorithms use (the 256/384/512 of the name; ES256K: SHA-256).
    var digest: MessageDigest {
        switch self {
        case .hs384, .rs384, .ps384, .es384: .sha384
        case .hs512, .rs512, .ps512, .es512: .sha512
        default: .sha256
        }
    }

    /// The signature scheme for asymmetric algorithms (`nil` for HMAC).
    var scheme: SignatureScheme? {
        switch self {
        case .rs256, .rs384, .rs512: .rsaPKCS1(digest)
        case .ps256, .ps384, .ps512: .rsaPSS(digest)
        case .es256, .es384, .es512, .es256k: .ecdsa(digest)
        case .eddsa: .eddsa
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
                if self[i] == algorithm { return true }
                formIndex(after: &i)
            }
            return false
        }
        return contains(algorithm)
    }
}
