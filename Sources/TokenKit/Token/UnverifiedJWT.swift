/// A JWT decoded WITHOUT checking its signature or claims: for display, auditing and
/// deciding when to refresh, never for trusting what it says.
///
/// Parsing of header and payload is as strict as verification (limits, canonical
/// base64url, duplicate-free JSON, the payload must be a JSON object). The signature part
/// is not needed to decode, so its encoding never makes decoding fail (see ``signature``).
public struct UnverifiedJWT: Sendable {
    /// The header.
    public let header: JWTHeader
    /// The claims (unverified; parsed from the payload on first access, then kept).
    public var claims: JWTClaims { claimsCache.claims }
    /// The signature bytes (unchecked); empty when part 3 is not canonical base64url.
    public let signature: [UInt8]
    /// Whether part 3 is canonical unpadded base64url (it is never verified here).
    public let signatureIsWellFormed: Bool
    let claimsCache: ClaimsCache

    /// Decodes `token`; throws ``JWTError`` naming the malformed part.
    ///
    /// Fast path: the token's UTF-8 is read in place, headers are parsed once per distinct
    /// header text (a small process-wide cache), and the payload is validated by the JSON lexer
    /// building nothing; the claims object is made only if ``claims`` is read. Whatever the
    /// fast path refuses goes through the full strict parser, so the outcome and every
    /// error are those of the full parse.
    public init(parsing token: String, limits: ParsingLimits = .default) throws(JWTError) {
        if let fast = Self.fastParse(token, limits: limits) {
            self = fast
            return
        }
        let jws = try CompactJWS(token, limits: limits, lenientSignature: true)
        header = jws.header
        let claims = try JWTClaims(JWTPayloadParser.object(jws.payload, limits: limits))
        signature = jws.signature
        signatureIsWellFormed = jws.signatureWellFormed
        claimsCache = .make(payload: jws.payload, limits: limits, claims: claims)
    }

    private init(header: JWTHeader, signature: [UInt8]?, cache: ClaimsCache) {
        self.header = header
        self.signature = signature ?? []
        signatureIsWellFormed = signature != nil
        claimsCache = cache
    }

    private static func fastParse(_ token: String, limits: ParsingLimits) -> UnverifiedJWT? {
        let parsed = token.utf8.withContiguousStorageIfAvailable { bytes -> UnverifiedJWT? in
            let count = bytes.count
            guard count > 0, count <= limits.maxTokenBytes else { return nil }
            guard let (first, second) = TokenSplit.dots(bytes) else { return nil }
            let headerText = UnsafeBufferPointer(rebasing: bytes[0..<first])
            guard let header = try? HeaderCache.shared.header(for: headerText, limits: limits, parse: { () throws(JWTError) in
                try CompactJWS.parseHeader(headerText, limits: limits)
            }) else { return nil }
            guard let payload = try? Base64URL.decode(UnsafeBufferPointer(rebasing: bytes[(first + 1)..<second])) else { return nil }
            let signature = try? Base64URL.decode(UnsafeBufferPointer(rebasing: bytes[(second + 1)...]))
            let valid = payload.withUnsafeBufferPointer { JSONValidation.isObject($0, maxDepth: limits.maxDepth) }
            guard valid else { return nil }
            return UnverifiedJWT(header: header, signature: signature, cache: .make(payload: payload, limits: limits))
        }
        return parsed ?? nil
    }
}

/// The payload of a JWT as a JSON object, with the error every reader reports for one that
/// is not.
enum JWTPayloadParser {
    static func object(_ payload: [UInt8], limits: ParsingLimits) throws(JWTError) -> JSONObject {
        do { return try StrictJSONParser.parseObject(payload, maxDepth: limits.maxDepth) } catch {
            throw malformed(error)
        }
    }

    /// The error for a payload the JSON lexer refused.
    static func malformed(_ error: JSONSyntaxError) -> JWTError {
        .malformed("part 2 (payload) is not a valid JSON object: \(error.reason)")
    }
}
