import Foundation

/// A JSON Web Key Set (RFC 7517 §5): the keys a verifier may use, chosen per token by `kid`.
///
/// Selection rules (``candidates(forKeyID:algorithm:)``): a token with a `kid` is verified
/// only by keys with exactly that `kid` (never by another key); a token without `kid` is
/// tried against every key that may verify its `alg`. Keys of unsupported types, and keys
/// marked for encryption only, are skipped at load time and listed in ``skipped``.
public struct JWKSet: Sendable {
    /// The usable keys, in document order.
    public let keys: [JWTKey]
    /// Keys that were not loaded, with the reason (index in the `keys` array, reason).
    public let skipped: [(index: Int, reason: String)]

    /// A set from keys you built.
    public init(keys: [JWTKey]) {
        self.keys = keys
        self.skipped = []
    }

    /// Parses JWKS JSON text (`{"keys":[…]}`). Throws when the document is not a JWKS or no
    /// key in it is usable.
    public init(json: String) throws(JWTError) {
        let object: JSONObject
        do { object = try StrictJSONParser.parseObject(Array(json.utf8), maxDepth: 5) } catch {
            throw .invalidKey("the JWKS is not a valid JSON object: \(error.reason)")
        }
        guard let entries = object["keys"]?.arrayValue else { throw .invalidKey("the JWKS has no \"keys\" array") }
        var keys: [JWTKey] = [], skipped: [(Int, String)] = []
        for (index, entry) in entries.enumerated() {
            guard let jwk = entry.objectValue else {
                skipped.append((index, "not a JSON object"))
                continue
            }
            do { keys.append(try JWTKey(jwk: jwk)) } catch { skipped.append((index, error.reason)) }
        }
        guard !keys.isEmpty else {
            let why = skipped.first.map { ": key \($0.0): \($0.1)" } ?? ""
            throw .invalidKey("the JWKS has no usable key\(why)")
        }
        self.keys = keys
        self.skipped = skipped
    }

    /// Reads a JWKS from a file (at most 1 MiB). Throws ``JWTError/Code/invalidKey`` naming
    /// the file when it cannot be read, and as ``init(json:)`` otherwise.
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
    public func candidates(forKeyID keyID: String?, algorithm: JWTAlgorithm) throws(JWTError) -> [JWTKey] {
        if let keyID {
            let named = keys.filter { $0.keyID == keyID }
            guard !named.isEmpty else {
                throw JWTError(code: .noMatchingKey, reason: "no key with kid \"\(JSONNameShortener.shorten(keyID))\"")
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
