/// A JWT decoded WITHOUT checking its signature or claims: for display, auditing and
/// deciding when to refresh, never for trusting what it says.
///
/// Parsing is as strict as verification (limits, canonical base64url, duplicate-free JSON,
/// the payload must be a JSON object).
public struct UnverifiedJWT: Sendable {
    /// The header.
    public let header: JWTHeader
    /// The claims (unverified; parsed from the payload on first access, then kept).
    public var claims: JWTClaims { claimsCache.claims }
    /// The signature bytes (unchecked).
    public let signature: [UInt8]
    let claimsCache: ClaimsCache

    /// Decodes `token`; throws ``JWTError`` naming the malformed part.
    ///
    /// Fast path: the token's UTF-8 is read in place, headers are parsed once per distinct
    /// header text (a small process-wide cache), and the payload is validated by a scan that
    /// builds nothing; the claims object is made only if ``claims`` is read. Whatever the
    /// scan does not accept goes through the full strict parser, so the outcome and every
    /// error are those of the full parse.
    public init(parsing token: String, limits: ParsingLimits = .default) throws(JWTError) {
        if let fast = Self.fastParse(token, limits: limits) {
            self = fast
            return
        }
        let jws = try CompactJWS(token, limits: limits)
        header = jws.header
        let claims = try JWTClaims(JWTPayloadParser.object(jws.payload, limits: limits))
        signature = jws.signature
        claimsCache = .make(payload: jws.payload, limits: limits, claims: claims)
    }

    private init(header: JWTHeader, signature: [UInt8], cache: ClaimsCache) {
        self.header = header
        self.signature = signature
        claimsCache = cache
    }

    private static func fastParse(_ token: String, limits: ParsingLimits) -> UnverifiedJWT? {
        let parsed = token.utf8.withContiguousStorageIfAvailable { bytes -> UnverifiedJWT? in
            let count = bytes.count
            guard count > 0, count <= limits.maxTokenBytes else { return nil }
            guard let (first, second) = TokenSplit.dots(bytes) else { return nil }
            let headerText = UnsafeBufferPointer(rebasing: bytes[0..<first])
            guard let header = try? HeaderCache.shared.header(for: headerText, parse: { () throws(JWTError) in
                try CompactJWS.parseHeader(headerText, limits: limits)
            }) else { return nil }
            guard let payload = try? Base64URL.decode(UnsafeBufferPointer(rebasing: bytes[(first + 1)..<second])),
                  let signature = try? Base64URL.decode(UnsafeBufferPointer(rebasing: bytes[(second + 1)...])) else { return nil }
            let valid = payload.withUnsafeBufferPointer { ClaimsScanner.scan($0, maxDepth: limits.maxDepth) { _ in true } }
            guard valid == true else { return nil }
            return UnverifiedJWT(header: header, signature: signature, cache: .make(payload: payload, limits: limits))
        }
        return parsed ?? nil
    }
}

enum JWTPayloadParser {
    static func object(_ payload: [UInt8], limits: ParsingLimits) throws(JWTError) -> JSONObject {
        do { return try StrictJSONParser.parseObject(payload, maxDepth: limits.maxDepth) } catch {
            throw .malformed("part 2 (payload) is not a valid JSON object: \(error.reason)")
        }
    }
}
