import Foundation
internal import TokenKitPrimitives

/// A JSON Web Key Set (RFC 7517 §5): the keys a verifier may use, chosen per token by `kid`.
///
/// Selection rules: a token with a `kid` is verified
/// only by keys with exactly that `kid`, byte for byte (never by another key, nor by one
/// whose `kid` is merely Unicode-equivalent); a token without `kid` is
/// tried against every key that may verify its `alg`; a `kid` that several keys share is
/// ambiguous and refused. (Exception: a set made with ``init(keys:)`` from one key without
/// a `kid` — e.g. `JWTVerifier(key:)` — uses that key for every token.)
///
/// Loading a document: every entry goes through key admission (``JWTKey/init(jwk:)-(JSONObject)``,
/// the same checks as a single JWK or PEM key). An entry that is refused — an unsupported
/// type, a key marked for encryption only, a key refused by admission such as an Ed25519 or
/// Ed448 key of small order — is dropped and listed with its `kid` and reason in
/// ``droppedKeys``; the set still loads when another key is usable. A document with no
/// usable key, or mixing symmetric (oct) and asymmetric keys, is refused.
public struct JWKSet: Sendable {
    /// The usable keys, in document order.
    public let keys: [JWTKey]
    /// The document's entries that were not loaded, in document order, each with its index,
    /// its `kid` (when it has a string one) and the reason. Empty for a set made with
    /// ``init(keys:)``.
    public let droppedKeys: [DroppedKey]
    /// ``droppedKeys`` as (index, reason) pairs (the shape before `droppedKeys` existed).
    public var skipped: [(index: Int, reason: String)] { droppedKeys.map { ($0.index, $0.reason) } }
    /// Key IDs that name more than one entry (counting entries that were skipped): a token
    /// naming one of them is refused rather than matched to a guess.
    let ambiguousKeyIDs: Set<ExactKey>

    /// Whether this set is one key without a `kid`, chosen explicitly by the caller: it then
    /// verifies tokens whatever `kid` they name (the caller already picked the key).
    let isSingleUnnamedKey: Bool

    /// A set from keys you built. A set of exactly one key without a `kid` verifies tokens
    /// whatever `kid` they carry (you chose the key); otherwise the `kid` rules above apply.
    public init(keys: [JWTKey]) {
        self.keys = keys
        self.droppedKeys = []
        self.isSingleUnnamedKey = keys.count == 1 && keys.first?.keyID == nil
        self.ambiguousKeyIDs = Self.duplicates(keys.compactMap(\.keyID))
    }

    /// Key IDs occurring more than once, compared by their UTF-8 bytes.
    private static func duplicates(_ ids: [String]) -> Set<ExactKey> {
        var seen: Set<ExactKey> = [], repeated: Set<ExactKey> = []
        for id in ids.map({ ExactKey($0) }) where !seen.insert(id).inserted { repeated.insert(id) }
        return repeated
    }

    /// Parses JWKS JSON text (`{"keys":[…]}`). Throws when the document is not a JWKS or no
    /// key in it is usable.
    public init(json: String) throws(JWTError) {
        let object: JSONObject
        do { object = try StrictJSONParser.parseObject(Array(json.utf8), maxDepth: 5) } catch {
            throw .invalidKey("the JWKS is not a valid JSON object: \(error.reason)")
        }
        guard let entries = object["keys"]?.arrayValue else { throw .invalidKey("the JWKS has no \"keys\" array") }
        var keys: [JWTKey] = [], dropped: [DroppedKey] = []
        for (index, entry) in entries.enumerated() {
            guard let jwk = entry.objectValue else {
                dropped.append(DroppedKey(index: index, keyID: nil, reason: "not a JSON object"))
                continue
            }
            do { keys.append(try JWTKey(jwk: jwk)) } catch {
                dropped.append(DroppedKey(index: index, keyID: jwk["kid"]?.stringValue, reason: error.reason))
            }
        }
        guard !keys.isEmpty else {
            let why = dropped.first.map { ": \($0)" } ?? ""
            throw .invalidKey("the JWKS has no usable key\(why)")
        }
        // A document that mixes shared secrets with public-key material is a configuration
        // error that invites algorithm confusion (e.g. a verification JWKS that also leaks
        // an HMAC secret): refuse it whole rather than guess which half was meant.
        if keys.contains(where: { $0.keyType == "oct" }), keys.contains(where: { $0.keyType != "oct" }) {
            throw .invalidKey("the JWKS mixes symmetric (oct) keys with asymmetric keys")
        }
        self.keys = keys
        self.droppedKeys = dropped
        self.isSingleUnnamedKey = false
        self.ambiguousKeyIDs = Self.duplicates(entries.compactMap { $0.objectValue?["kid"]?.stringValue })
    }

    /// Reads a JWKS from a file (at most 1 MiB). Throws ``JWTError/Code/invalidKey`` naming
    /// the file when it cannot be read, and as ``init(json:)`` otherwise.
    ///
    /// Checks no file permissions: meant for public key sets. A file that may hold private
    /// keys or HMAC secrets should be read through TokenKitStore's `SecretFile` (with
    /// ``KeyFile/holdsSecret(_:)``) and loaded with ``KeyFile``, as `tokenkit` does.
    public init(contentsOfFile path: String) throws(JWTError) {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw .invalidKey("cannot read JWKS file \(path)")
        }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: 1024 * 1024 + 1), data.count <= 1024 * 1024,
              let text = String(data: data, encoding: .utf8)
        else { throw .invalidKey("JWKS file \(path) is unreadable, larger than 1 MiB, or not UTF-8") }
        try self.init(json: text)
    }

    /// The keys that may verify a token with this `kid` and `alg` (see the type's rules).
    /// Throws ``JWTError/Code/noMatchingKey`` when there are none.
    package func candidates(forKeyID keyID: String?, algorithm: JWTAlgorithm) throws(JWTError) -> [JWTKey] {
        if let keyID, !isSingleUnnamedKey {
            let named = keys.filter { $0.keyID?.isByteIdentical(to: keyID) == true }
            guard !named.isEmpty else {
                throw JWTError(code: .noMatchingKey, reason: "no key with kid \"\(JSONNameShortener.shorten(keyID))\"")
            }
            guard !ambiguousKeyIDs.contains(ExactKey(keyID)) else {
                throw JWTError(code: .noMatchingKey, reason: "kid \"\(JSONNameShortener.shorten(keyID))\" is ambiguous: several keys in the set have it")
            }
            let fitting = named.filter { $0.algorithms.contains(algorithm) && $0.mayVerify }
            guard !fitting.isEmpty else {
                throw JWTError(code: .algorithmNotAllowed,
                               reason: "key \"\(JSONNameShortener.shorten(keyID))\" may not verify \(algorithm) tokens")
            }
            return fitting
        }
        let fitting = keys.filter { $0.algorithms.contains(algorithm) && $0.mayVerify }
        guard !fitting.isEmpty else {
            throw JWTError(code: .noMatchingKey, reason: "no key may verify \(algorithm) tokens")
        }
        return fitting
    }
}
