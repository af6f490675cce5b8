import Foundation

/// The keys held in a key file, recognised by their shape: a PEM key, one JWK, or a JWKS.
///
/// This is the one place that decides what a key file is, for the `tokenkit` commands and for
/// applications that accept a key file from their operator. It reads no file itself (read the
/// bytes and pass them in), never prints, and never looks at the environment.
///
/// Detection, on the bytes only:
/// - bytes that are not valid UTF-8 are refused before anything is parsed
///   (``Format/init(detecting:)`` returns `nil`);
/// - otherwise the text, leading and trailing whitespace removed, is **JSON** when it starts
///   with `{`: a **JWKS** when the object has a `"keys"` member, else **one JWK**;
/// - anything else is **PEM**. The first block that is not `EC PARAMETERS` is the key (so the
///   output of `openssl ecparam -genkey` loads); later blocks, such as a certificate chain after
///   a certificate, are not read. Encrypted PEM is refused.
///
/// Loading gives every key the checks of the initialiser that reads it
/// (``JWTKey/init(pem:keyID:algorithms:)``, ``JWTKey/init(jwk:)-(JSONObject)``,
/// ``JWKSet/init(json:)``): a key that would load one way loads the same way here.
/// For ``Purpose/verification`` a PEM key or a JWK that holds a private key is reduced to its
/// public half (an `oct` JWK stays a secret: HMAC verifies with the secret); a JWKS is taken
/// as ``JWKSet/init(json:)`` reads it, with its `kid` selection rules and skipped entries.
///
/// Every failure is a ``JWTError`` with code ``JWTError/Code/invalidKey`` (or
/// ``JWTError/Code/tooLarge`` beyond ``maximumSize``); its reason names the problem. It may
/// quote a JWK's `kty` or `alg`, never key material or a PEM body.
public struct KeyFile: Sendable {
    /// What a key file holds, as recognised from its bytes. A struct with a raw value rather
    /// than an enum, so that formats can be added without breaking callers.
    public struct Format: Hashable, Sendable, CustomStringConvertible {
        /// `"pem"`, `"jwk"` or `"jwks"`.
        public let rawValue: String
        private init(_ rawValue: String) { self.rawValue = rawValue }

        /// One or more PEM blocks (RFC 7468).
        public static let pem = Format("pem")
        /// One JSON Web Key (RFC 7517 §4).
        public static let jwk = Format("jwk")
        /// A JSON Web Key Set (RFC 7517 §5): an object with a `"keys"` member.
        public static let jwks = Format("jwks")

        /// The format of `bytes` by the rules of ``KeyFile``, or `nil` when the bytes are not
        /// UTF-8 text (and therefore no key file). Looks at the shape only: a result does not
        /// mean the keys will load.
        public init?(detecting bytes: some Collection<UInt8>) {
            guard let text = KeyFile.text(of: bytes) else { return nil }
            self = KeyFile.format(ofTrimmed: text)
        }

        /// The raw value.
        public var description: String { rawValue }
    }

    /// What the keys will be used for.
    public struct Purpose: Hashable, Sendable {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// Signing: keys are kept as they are (a private key, or an HMAC secret).
        public static let signing = Purpose("signing")
        /// Verification: a private PEM key or private JWK is reduced to its public half.
        public static let verification = Purpose("verification")
    }

    /// The largest key file accepted: 1 MiB, far beyond any real key, certificate chain or JWKS.
    public static let maximumSize = 1024 * 1024

    /// The format the bytes were recognised as.
    public let format: Format
    /// The keys, ready for ``JWTVerifier`` (verification) or to pick a signing key from.
    public let keySet: JWKSet

    /// Loads the keys in a key file's `contents` for `purpose` (see the type's rules).
    ///
    /// Throws ``JWTError/Code/tooLarge`` for more than ``maximumSize`` bytes, and
    /// ``JWTError/Code/invalidKey`` when the bytes are not UTF-8 text or hold no usable key.
    public init(contents: some Collection<UInt8>, for purpose: Purpose) throws(JWTError) {
        guard contents.count <= Self.maximumSize else {
            throw JWTError(code: .tooLarge, reason: "the key file is larger than \(Self.maximumSize) bytes")
        }
        guard let text = Self.text(of: contents) else {
            throw .invalidKey("the key file is not text (expected PEM or JWK JSON)")
        }
        let format = Self.format(ofTrimmed: text)
        self.format = format
        switch format {
        case .jwks:
            keySet = try JWKSet(json: text)
        case .jwk:
            let object: JSONObject
            do { object = try JSONValue(parsing: text, maxDepth: 5).objectValue ?? JSONObject() } catch {
                throw JWTError(code: .invalidKey, reason: error.reason, underlyingError: error)
            }
            let key = try JWTKey(jwk: object)
            keySet = JWKSet(keys: [purpose == .verification && key.keyType != "oct" ? try key.publicKey() : key])
        default:
            let key = try JWTKey(pem: text)
            keySet = JWKSet(keys: [purpose == .verification ? try key.publicKey() : key])
        }
    }

    /// The bytes as text with surrounding whitespace removed, or `nil` when they are not
    /// valid UTF-8 (decoding would have replaced a sequence, so the round trip differs).
    static func text(of bytes: some Collection<UInt8>) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.utf8.elementsEqual(bytes) else { return nil }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The format of trimmed key-file text. A JSON object with a `"keys"` member is a JWKS;
    /// the member is looked for by parsing (an unparsable object is reported as a JWK, whose
    /// parser then names the syntax error).
    private static func format(ofTrimmed text: String) -> Format {
        guard text.hasPrefix("{") else { return .pem }
        guard let object = try? JSONValue(parsing: text, maxDepth: 5).objectValue, object["keys"] != nil else {
            return .jwk
        }
        return .jwks
    }
}
