internal import TokenKitPrimitives

/// The protected header of a JWS, checked for shape when parsed.
///
/// Guarantees: `alg` is present and a string; `kid`, `typ` and `cty` are strings when
/// present; `crit`, when present, is a non-empty array of distinct strings. Header keys
/// (`jwk`, `x5c`) and key URLs (`jku`, `x5u`) are kept in ``raw`` but never used: TokenKit
/// takes keys only from its caller and never fetches anything.
public struct JWTHeader: Sendable, Hashable {
    /// The parsed fields, shared by every copy: a header is copied at each step of a
    /// verification (cache, verifier, result), and one reference to count is far cheaper
    /// than one per field.
    private final class Fields: Sendable {
        let algorithmName: String
        let algorithm: JWTAlgorithm?
        let keyID: String?
        let type: String?
        let contentType: String?
        let critical: [String]?
        let raw: JSONObject

        init(algorithmName: String, keyID: String?, type: String?, contentType: String?, critical: [String]?, raw: JSONObject) {
            self.algorithmName = algorithmName
            self.algorithm = JWTAlgorithm(name: algorithmName)
            self.keyID = keyID
            self.type = type
            self.contentType = contentType
            self.critical = critical
            self.raw = raw
        }
    }

    private let fields: Fields

    /// The `alg` value as written (may name an algorithm TokenKit refuses, such as `none`).
    public var algorithmName: String { fields.algorithmName }
    /// The algorithm, when TokenKit implements it (looked up once, when the header is parsed).
    public var algorithm: JWTAlgorithm? { fields.algorithm }
    /// The key ID.
    public var keyID: String? { fields.keyID }
    /// The media type of the token (`typ`), e.g. `"JWT"`.
    public var type: String? { fields.type }
    /// The content type (`cty`).
    public var contentType: String? { fields.contentType }
    /// Names listed in `crit`.
    public var critical: [String]? { fields.critical }
    /// Every header member.
    public var raw: JSONObject { fields.raw }

    init(_ object: JSONObject) throws(JWTError) {
        guard let alg = object["alg"] else { throw .malformed("header has no \"alg\"") }
        guard let algName = alg.stringValue else { throw .malformed("header \"alg\" must be a string") }
        func optionalString(_ name: String) throws(JWTError) -> String? {
            guard let value = object[name] else { return nil }
            guard let s = value.stringValue else { throw .malformed("header \"\(name)\" must be a string") }
            return s
        }
        let keyID = try optionalString("kid")
        let type = try optionalString("typ")
        let contentType = try optionalString("cty")
        var critical: [String]?
        if let crit = object["crit"] {
            guard let list = crit.arrayValue, !list.isEmpty else {
                throw .malformed("header \"crit\" must be a non-empty array")
            }
            let names = list.compactMap(\.stringValue)
            guard names.count == list.count, Set(names.map { ExactKey($0) }).count == names.count else {
                throw .malformed("header \"crit\" must list distinct strings")
            }
            critical = names
        }
        fields = Fields(algorithmName: algName, keyID: keyID, type: type, contentType: contentType, critical: critical, raw: object)
    }

    /// Equal when the headers have the same members (every field is read from them), names
    /// and string values compared by their bytes (``JSONValue/==(_:_:)``).
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.fields === rhs.fields || lhs.raw == rhs.raw
    }

    /// Hashes the members ``==(_:_:)`` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(raw)
    }
}
