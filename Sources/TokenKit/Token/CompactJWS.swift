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
    /// `BASE64URL(header) || '.' || BASE64URL(payload)`: what the signature covers.
    let signingInput: ArraySlice<UInt8>

    init(_ token: String, limits: ParsingLimits) throws(JWTError) {
        let bytes = Array(token.utf8)
        try self.init(bytes: bytes, limits: limits)
    }

    init(bytes: [UInt8], limits: ParsingLimits) throws(JWTError) {
        guard bytes.count <= limits.maxTokenBytes else {
            throw JWTError(code: .tooLarge, reason: "token of \(bytes.count) bytes exceeds the limit of \(limits.maxTokenBytes) bytes")
        }
        guard !bytes.isEmpty else { throw .malformed("the token is empty") }
        var dots: [Int] = []
        for (i, byte) in bytes.enumerated() where byte == UInt8(ascii: ".") {
            dots.append(i)
            if dots.count > 4 { break }
        }
        guard dots.count == 2 else {
            if dots.count == 4 { throw .malformed("encrypted tokens (JWE, five parts) are not supported") }
            throw .malformed("expected 3 dot-separated parts, found \(min(dots.count, 4) + 1)\(dots.count > 4 ? " or more" : "")")
        }
        let headerPart = bytes[0..<dots[0]]
        let payloadPart = bytes[(dots[0] + 1)..<dots[1]]
        let signaturePart = bytes[(dots[1] + 1)...]
        guard !headerPart.isEmpty else { throw .malformed("part 1 (header) is empty") }

        let headerBytes = try Self.decode(headerPart, part: 1, name: "header")
        let headerObject: JSONObject
        do { headerObject = try StrictJSONParser.parseObject(headerBytes, maxDepth: limits.maxDepth) } catch {
            throw .malformed("part 1 (header) is not a valid JSON object: \(error.reason)")
        }
        header = try JWTHeader(headerObject)
        payload = try Self.decode(payloadPart, part: 2, name: "payload")
        signature = try Self.decode(signaturePart, part: 3, name: "signature")
        signingInput = bytes[0..<dots[1]]
    }

    private static func decode(_ part: ArraySlice<UInt8>, part index: Int, name: String) throws(JWTError) -> [UInt8] {
        do {
            return try part.withUnsafeBufferPointer { buffer throws(Base64URL.DecodingFailure) in try Base64URL.decode(buffer) }
        } catch {
            throw .malformed("part \(index) (\(name)) is not canonical base64url: \(error.reason)")
        }
    }
}
