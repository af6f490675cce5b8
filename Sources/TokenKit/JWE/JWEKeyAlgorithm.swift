internal import TokenKitPrimitives
/// A JWE key management algorithm (RFC 7518 §4, RFC 8037 §3.2 for X25519): how the content
/// encryption key reaches the recipient.
///
/// Only the algorithms below exist here. Refused by design, with the reason
/// ``refusalReason(forName:)`` gives: `RSA1_5` (PKCS#1 v1.5 key transport invites
/// Bleichenbacher's padding oracle), `PBES2-*` (the sender chooses the iteration count: a
/// denial of service), the `A*GCMKW` wrappers and anything else unregistered.
public struct JWEKeyAlgorithm: Hashable, Sendable, CustomStringConvertible {
    /// The `alg` header value, e.g. `"ECDH-ES+A256KW"`.
    public let name: String
    let family: Family

    /// How an algorithm carries the content key.
    enum Family: Hashable, Sendable {
        /// RSAES-OAEP with SHA-1 (`sha256` false) or SHA-256.
        case rsaOAEP(sha256: Bool)
        /// ECDH-ES: direct (`wrapKeyBytes` nil) or with AES key wrap of that key size.
        case ecdhES(wrapKeyBytes: Int?)
        /// AES key wrap with a shared key of this many bytes.
        case aesKeyWrap(keyBytes: Int)
        /// The shared key is the content key.
        case direct
    }

    private init(_ name: String, _ family: Family) {
        self.name = name
        self.family = family
    }

    /// The algorithm named `name` (case-sensitive); `nil` when TokenKit does not implement it.
    public init?(name: String) {
        guard let known = Self.all.first(where: { $0.name.isByteIdentical(to: name) }) else { return nil }
        self = known
    }

    /// RSAES-OAEP with SHA-1 and MGF1-SHA-1 (RSA keys of at least 2048 bits).
    public static let rsaOAEP = JWEKeyAlgorithm("RSA-OAEP", .rsaOAEP(sha256: false))
    /// RSAES-OAEP with SHA-256 and MGF1-SHA-256 (RSA keys of at least 2048 bits).
    public static let rsaOAEP256 = JWEKeyAlgorithm("RSA-OAEP-256", .rsaOAEP(sha256: true))
    /// ECDH-ES, the Concat KDF's output used directly as the content key.
    public static let ecdhES = JWEKeyAlgorithm("ECDH-ES", .ecdhES(wrapKeyBytes: nil))
    /// ECDH-ES, the derived key wrapping the content key with A128KW.
    public static let ecdhESA128KW = JWEKeyAlgorithm("ECDH-ES+A128KW", .ecdhES(wrapKeyBytes: 16))
    /// ECDH-ES, the derived key wrapping the content key with A192KW.
    public static let ecdhESA192KW = JWEKeyAlgorithm("ECDH-ES+A192KW", .ecdhES(wrapKeyBytes: 24))
    /// ECDH-ES, the derived key wrapping the content key with A256KW.
    public static let ecdhESA256KW = JWEKeyAlgorithm("ECDH-ES+A256KW", .ecdhES(wrapKeyBytes: 32))
    /// AES key wrap (RFC 3394) with a shared 128-bit key.
    public static let a128KW = JWEKeyAlgorithm("A128KW", .aesKeyWrap(keyBytes: 16))
    /// AES key wrap (RFC 3394) with a shared 192-bit key.
    public static let a192KW = JWEKeyAlgorithm("A192KW", .aesKeyWrap(keyBytes: 24))
    /// AES key wrap (RFC 3394) with a shared 256-bit key.
    public static let a256KW = JWEKeyAlgorithm("A256KW", .aesKeyWrap(keyBytes: 32))
    /// Direct encryption: the shared key is the content key (its length must be the `enc`'s).
    public static let direct = JWEKeyAlgorithm("dir", .direct)

    /// Every key management algorithm TokenKit implements.
    public static let all: [JWEKeyAlgorithm] = [
        .rsaOAEP, .rsaOAEP256, .ecdhES, .ecdhESA128KW, .ecdhESA192KW, .ecdhESA256KW, .a128KW, .a192KW, .a256KW, .direct,
    ]

    /// Why `name` is not a usable key management algorithm: a sentence naming the attack for
    /// the algorithms refused by design, "unsupported" otherwise; `nil` for a supported name.
    public static func refusalReason(forName name: String) -> String? {
        if JWEKeyAlgorithm(name: name) != nil { return nil }
        let shown = JSONNameShortener.shorten(name)
        if name.isByteIdentical(to: "RSA1_5") {
            return "JWE alg RSA1_5 is refused: PKCS#1 v1.5 key transport is open to Bleichenbacher's padding-oracle attack (use RSA-OAEP-256)"
        }
        if name.hasPrefix("PBES2-") {
            return "JWE alg \(shown) is refused: the sender chooses the PBKDF2 iteration count (p2c), a denial of service on the recipient"
        }
        if name.isASCIICaseInsensitiveEqual(to: "none") { return "JWE alg \"none\" is refused: an unprotected token is never accepted" }
        if JWTAlgorithm(name: name) != nil { return "\(shown) is a JWS signature algorithm, not a JWE key management algorithm" }
        return "unsupported JWE alg \"\(shown)\""
    }

    /// Whether the recipient needs an asymmetric key (RSA-OAEP*, ECDH-ES*).
    public var isAsymmetric: Bool {
        switch family {
        case .rsaOAEP, .ecdhES: true
        case .aesKeyWrap, .direct: false
        }
    }

    /// Whether the JWE carries no encrypted key (`dir`, `ECDH-ES`): part 2 must be empty.
    var hasEmptyEncryptedKey: Bool {
        switch family {
        case .direct, .ecdhES(wrapKeyBytes: nil): true
        default: false
        }
    }

    public var description: String { name }
}

/// A JWE content encryption algorithm (`enc`, RFC 7518 §5): AES-GCM or AES-CBC with HMAC.
///
/// Only these six exist here; any other `enc` (for example `A128CTR`) is refused.
public struct JWEContentEncryption: Hashable, Sendable, CustomStringConvertible {
    /// The `enc` header value, e.g. `"A256GCM"`.
    public let name: String
    /// The content key's length in bytes (16/24/32 for GCM, 32/48/64 for CBC-HS).
    public let keyByteCount: Int
    /// Whether this is AES-GCM (else AES-CBC with HMAC-SHA2, RFC 7518 §5.2).
    let isGCM: Bool

    private init(_ name: String, keyByteCount: Int, isGCM: Bool) {
        self.name = name
        self.keyByteCount = keyByteCount
        self.isGCM = isGCM
    }

    /// The encryption named `name` (case-sensitive); `nil` when TokenKit does not implement it.
    public init?(name: String) {
        guard let known = Self.all.first(where: { $0.name.isByteIdentical(to: name) }) else { return nil }
        self = known
    }

    /// AES-128-GCM.
    public static let a128GCM = JWEContentEncryption("A128GCM", keyByteCount: 16, isGCM: true)
    /// AES-192-GCM.
    public static let a192GCM = JWEContentEncryption("A192GCM", keyByteCount: 24, isGCM: true)
    /// AES-256-GCM.
    public static let a256GCM = JWEContentEncryption("A256GCM", keyByteCount: 32, isGCM: true)
    /// AES-128-CBC with HMAC-SHA-256 (a 128-bit tag).
    public static let a128CBCHS256 = JWEContentEncryption("A128CBC-HS256", keyByteCount: 32, isGCM: false)
    /// AES-192-CBC with HMAC-SHA-384 (a 192-bit tag).
    public static let a192CBCHS384 = JWEContentEncryption("A192CBC-HS384", keyByteCount: 48, isGCM: false)
    /// AES-256-CBC with HMAC-SHA-512 (a 256-bit tag).
    public static let a256CBCHS512 = JWEContentEncryption("A256CBC-HS512", keyByteCount: 64, isGCM: false)

    /// Every content encryption TokenKit implements.
    public static let all: [JWEContentEncryption] = [.a128GCM, .a192GCM, .a256GCM, .a128CBCHS256, .a192CBCHS384, .a256CBCHS512]

    /// The IV length in bytes: 12 for GCM, 16 for CBC.
    var ivByteCount: Int { isGCM ? 12 : 16 }
    /// The tag length in bytes: 16 for GCM, half the key for CBC-HS.
    var tagByteCount: Int { isGCM ? 16 : keyByteCount / 2 }

    public var description: String { name }
}
