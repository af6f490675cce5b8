/// A JWT decoded WITHOUT checking its signature or claims: for display, auditing and
/// deciding when to refresh, never for trusting what it says.
///
/// Parsing is as strict as verification (limits, canonical base64url, duplicate-free JSON,
/// the payload must be a JSON object).
public struct UnverifiedJWT: Sendable {
    /// The header.
    public let header: JWTHeader
    /// The claims (unverified).
    public let claims: JWTClaims
    /// The signature bytes (unchecked).
    public let signature: [UInt8]

    /// Decodes `token`; throws ``JWTError`` naming the malformed part.
    public init(parsing token: String, limits: ParsingLimits = .default) throws(JWTError) {
        let jws = try CompactJWS(token, limits: limits)
        header = jws.header
        claims = try JWTClaims(JWTPayloadParser.object(jws.payload, limits: limits))
        signature = jws.signature
    }
}

enum JWTPayloadParser {
    static func object(_ payload: [UInt8], limits: ParsingLimits) throws(JWTError) -> JSONObject {
        do { return try StrictJSONParser.parseObject(payload, maxDepth: limits.maxDepth) } catch {
            throw .malformed("part 2 (payload) is not a valid JSON object: \(error.reason)")
        }
    }
}
