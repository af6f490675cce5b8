/// The protected header of a JWS, checked for shape when parsed.
///
/// Guarantees: `alg` is present and a string; `kid`, `typ` and `cty` are strings when
/// present; `crit`, when present, is a non-empty array of distinct strings. Header keys
/// (`jwk`, `x5c`) and key URLs (`jku`, `x5u`) are kept in ``raw`` but never used: TokenKit
/// takes keys only from its caller and never fetches anything.
public struct JWTHeader: Sendable, Hashable {
    /// The `alg` value as written (may name an algorithm TokenKit refuses, such as `none`).
    public let algorithmName: String
    /// The algorithm, when TokenKit implements it.
    public var algorithm: JWTAlgorithm? { resolvedAlgorithm }
    /// `algorithm`, looked up once when the header is parsed.
    private let resolvedAlgorithm: JWTAlgorithm?
    /// The key ID.
    public let keyID: String?
    /// The media type of the token (`typ`), e.g. `"JWT"`.
    public let type: String?
    /// The content type (`cty`).
    public let contentType: String?
    /// Names listed in `crit`.
    public let critical: [String]?
    /// Every header member.
    public let raw: JSONObject

    init(_ object: JSONObject) throws(JWTError) {
        guard let alg = object["alg"] else { throw .malformed("header has no \"alg\"") }
        guard let algName = alg.stringValue else { throw .malformed("header \"alg\" must be a string") }
        func optionalString(_ name: String) throws(JWTError) -> String? {
            guard let value = object[name] else { return nil }
            guard let s = value.stringValue else { throw .malformed("header \"\(name)\" must be a string") }
            return s
        }
        algorithmName = algName
        resolvedAlgorithm = JWTAlgorithm(name: algName)
        keyID = try optionalString("kid")
        type = try optionalString("typ")
        contentType = try optionalString("cty")
        if let crit = object["crit"] {
            guard let list = crit.arrayValue, !list.isEmpty else {
                throw .malformed("header \"crit\" must be a non-empty array")
            }
            let names = list.compactMap(\.stringValue)
            guard names.count == list.count, Set(names.map(ExactKey.init)).count == names.count else {
                throw .malformed("header \"crit\" must list distinct strings")
            }
            critical = names
        } else {
            critical = nil
        }
        raw = object
    }
}
