/// A compact JWS split into its three parts and decoded, with no signature check yet.
///
/// Parsing guarantees: the token fits ``ParsingLimits/maxTokenBytes``; it has exactly three
/// dot-separated parts (a five-part JWE is named as such); each part is canonical unpadded
/// base64url; the header is a strict JSON object (no duplicate members, bounded depth) with
/// a string `alg`. The payload is decoded from base64url but not parsed as JSON here.
struct CompactJWS: Sendable {
    let header: JWTHeader
    let payload: [UInt8]
    let signature: [UInt8]
    /// Whether part 3 was canonical base64url (always true unless `lenientSignature`).
    let signatureWellFormed: Bool
    /// `BASE64URL(header) || '.' || BASE64URL(payload)`: what the signature covers.
    let signingInput: ArraySlice<UInt8>

    /// Splits and decodes `token`. With `lenientSignature` (decoding for display, which
    /// never looks at the signature) a part 3 that is not canonical base64url leaves
    /// ``signature`` empty instead of refusing the token.
    init(_ token: String, limits: ParsingLimits, lenientSignature: Bool = false) throws(JWTError) {
        let bytes = Array(token.utf8)
        try self.init(bytes: bytes, limits: limits, lenientSignature: lenientSignature)
    }

    init(bytes: [UInt8], limits: ParsingLimits, lenientSignature: Bool = false) throws(JWTError) {
        guard bytes.count <= limits.maxTokenBytes else {
            throw JWTError(code: .tooLarge, reason: "token of \(bytes.count) bytes exceeds the limit of \(limits.maxTokenBytes) bytes")
        }
        guard !bytes.isEmpty else { throw .malformed("the token is empty") }
        guard let (first, second) = bytes.withUnsafeBufferPointer({ TokenSplit.dots($0) }) else {
            let dots = bytes.withUnsafeBufferPointer { TokenSplit.dotCount($0, limit: 5) }
            if dots == 2 { throw .malformed("part 1 (header) is empty") }  // `dots` refuses only that with two
            if dots == 4 { throw .malformed("an encrypted token (JWE, five parts) is not a JWS: decrypt it first (JWEDecrypter; tokenkit decrypt)") }
            throw .malformed("expected 3 dot-separated parts, found \(min(dots, 4) + 1)\(dots > 4 ? " or more" : "")")
        }
        let headerPart = bytes[0..<first]
        let payloadPart = bytes[(first + 1)..<second]
        let signaturePart = bytes[(second + 1)...]

        header = try headerPart.withUnsafeBufferPointer { text throws(JWTError) in try Self.parseHeader(text, limits: limits) }
        payload = try Self.decode(payloadPart, part: 2, name: "payload")
        if lenientSignature {
            let decoded = try? Self.decode(signaturePart, part: 3, name: "signature")
            signature = decoded ?? []
            signatureWellFormed = decoded != nil
        } else {
            signature = try Self.decode(signaturePart, part: 3, name: "signature")
            signatureWellFormed = true
        }
        signingInput = bytes[0..<second]
    }

    /// The header from its base64url text (part 1), with the errors a full parse reports.
    static func parseHeader(_ text: UnsafeBufferPointer<UInt8>, limits: ParsingLimits) throws(JWTError) -> JWTHeader {
        let headerBytes: [UInt8]
        do { headerBytes = try Base64URL.decode(text) } catch {
            throw .malformed("part 1 (header) is not canonical base64url: \(error.reason)")
        }
        let headerObject: JSONObject
        do { headerObject = try StrictJSONParser.parseObject(headerBytes, maxDepth: limits.maxDepth) } catch {
            throw .malformed("part 1 (header) is not a valid JSON object: \(error.reason)")
        }
        return try JWTHeader(headerObject)
    }

    private static func decode(_ part: ArraySlice<UInt8>, part index: Int, name: String) throws(JWTError) -> [UInt8] {
        do {
            return try part.withUnsafeBufferPointer { buffer throws(Base64URL.DecodingFailure) in try Base64URL.decode(buffer) }
        } catch {
            throw .malformed("part \(index) (\(name)) is not canonical base64url: \(error.reason)")
        }
    }
}
