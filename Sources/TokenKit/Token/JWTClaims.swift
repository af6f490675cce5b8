import Foundation

/// The claims of a JWT payload, with typed access to the registered claims (RFC 7519 §4.1)
/// and raw access to everything else.
///
/// The typed accessors throw ``JWTError/Code/invalidClaim`` when a claim is present with
/// the wrong JSON type (e.g. a string `exp`), so a malformed claim is never mistaken for an
/// absent one.
public struct JWTClaims: Sendable, Hashable {
    /// Every claim, in document order.
    public var raw: JSONObject

    /// Claims from a JSON object.
    public init(_ raw: JSONObject = JSONObject()) { self.raw = raw }

    /// A claim's raw value, or `nil` when absent. Setting `nil` removes it.
    public subscript(name: String) -> JSONValue? {
        get { raw[name] }
        set { raw[name] = newValue }
    }

    /// `iss`.
    public func issuer() throws(JWTError) -> String? { try string("iss") }
    /// `sub`.
    public func subject() throws(JWTError) -> String? { try string("sub") }
    /// `jti`.
    public func jwtID() throws(JWTError) -> String? { try string("jti") }

    /// `aud` as a list (a single string becomes one element). Throws unless `aud` is a
    /// string or a non-empty array of strings.
    public func audience() throws(JWTError) -> [String]? {
        guard let value = raw["aud"] else { return nil }
        if let s = value.stringValue { return [s] }
        guard let list = value.arrayValue else { throw .invalidClaim("aud", "must be a string or an array of strings") }
        let strings = list.compactMap(\.stringValue)
        guard strings.count == list.count else { throw .invalidClaim("aud", "must be a string or an array of strings") }
        guard !strings.isEmpty else { throw .invalidClaim("aud", "must not be an empty array") }
        return strings
    }

    /// `exp` in seconds since 1970 (a NumericDate; fractions allowed).
    public func expiration() throws(JWTError) -> Double? { try numericDate("exp") }
    /// `nbf` in seconds since 1970.
    public func notBefore() throws(JWTError) -> Double? { try numericDate("nbf") }
    /// `iat` in seconds since 1970.
    public func issuedAt() throws(JWTError) -> Double? { try numericDate("iat") }

    /// `exp` as a `Date`; `nil` when absent or not a valid NumericDate (for callers that only
    /// need a best-effort expiry, e.g. deciding when to refresh).
    public var expirationDate: Date? { (try? expiration()).flatMap { $0 }.map { Date(timeIntervalSince1970: $0) } }

    /// A string claim; throws when present with another type.
    public func string(_ name: String) throws(JWTError) -> String? {
        guard let value = raw[name] else { return nil }
        guard let s = value.stringValue else { throw .invalidClaim(name, "must be a string, found \(value.typeName)") }
        return s
    }

    /// A NumericDate claim: a finite JSON number. Throws when present with another type.
    public func numericDate(_ name: String) throws(JWTError) -> Double? {
        guard let value = raw[name] else { return nil }
        guard let number = value.numberValue else {
            throw .invalidClaim(name, "must be a NumericDate (a number), found \(value.typeName)")
        }
        guard NumericDate.isInRange(number.doubleValue) else {
            throw .invalidClaim(name, "NumericDate \(number.literal) is out of range")
        }
        return number.doubleValue
    }
}
