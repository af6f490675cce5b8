/// A compact JWE (RFC 7516 §7.1) split into its five parts and decoded, nothing decrypted yet.
///
/// Guarantees: the token fits the limit (``JWEDecryptionOptions/limits``); it has exactly
/// five dot-separated parts (a three-part JWS is named as such); the header is canonical
/// base64url of a strict JSON object (no duplicate members, bounded depth) that passes
/// ``JWEHeader``'s checks; the other four parts are canonical unpadded base64url.
struct CompactJWE {
    let header: JWEHeader
    /// `ASCII(BASE64URL(protected header))`: the additional authenticated data.
    let additionalData: [UInt8]
    let encryptedKey: [UInt8]
    let iv: [UInt8]
    let ciphertext: [UInt8]
    let tag: [UInt8]

    init(_ token: String, limits: ParsingLimits) throws(JWTError) {
        let bytes = Array(token.utf8)
        guard bytes.count <= limits.maxTokenBytes else {
            throw JWTError(code: .tooLarge, reason: "token of \(bytes.count) bytes exceeds the limit of \(limits.maxTokenBytes) bytes")
        }
        guard !bytes.isEmpty else { throw .malformed("the token is empty") }
        let parts = bytes.split(separator: UInt8(ascii: "."), maxSplits: 5, omittingEmptySubsequences: false)
        guard parts.count == 5 else {
            if parts.count == 3 { throw .malformed("a JWS (three parts) is not a JWE (five parts): nothing to decrypt") }
            throw .malformed("expected 5 dot-separated parts (a compact JWE), found \(parts.count)\(parts.count > 5 ? " or more" : "")")
        }
        guard !parts[0].isEmpty else { throw .malformed("part 1 (protected header) is empty") }
        let headerBytes = try Self.decode(parts[0], part: 1, name: "protected header")
        let object: JSONObject
        do { object = try StrictJSONParser.parseObject(headerBytes, maxDepth: limits.maxDepth) } catch {
            throw .malformed("part 1 (protected header) is not a valid JSON object: \(error.reason)")
        }
        header = try JWEHeader(object)
        additionalData = Array(parts[0])
        encryptedKey = try Self.decode(parts[1], part: 2, name: "encrypted key")
        iv = try Self.decode(parts[2], part: 3, name: "initialization vector")
        ciphertext = try Self.decode(parts[3], part: 4, name: "ciphertext")
        tag = try Self.decode(parts[4], part: 5, name: "authentication tag")
    }

    private static func decode(_ part: ArraySlice<UInt8>, part index: Int, name: String) throws(JWTError) -> [UInt8] {
        do {
            return try part.withUnsafeBufferPointer { buffer throws(Base64URL.DecodingFailure) in try Base64URL.decode(buffer) }
        } catch {
            throw .malformed("part \(index) (\(name)) is not canonical base64url: \(error.reason)")
        }
    }

    /// Refuses parts whose sizes do not fit the algorithms, before any key is used: an
    /// encrypted key with `dir`/`ECDH-ES`, an IV that is not 12 (GCM) or 16 (CBC) bytes, a tag
    /// that is not 16 bytes (GCM) or the full half-MAC (CBC-HS: a truncated tag is refused),
    /// a CBC ciphertext that is not whole blocks. Sizes are public: these refusals say nothing
    /// about the key.
    func checkSizes() throws(JWTError) {
        let enc = header.encryption
        if header.algorithm.hasEmptyEncryptedKey, !encryptedKey.isEmpty {
            throw .malformed("with \(header.algorithm) the encrypted key (part 2) must be empty")
        }
        guard iv.count == enc.ivByteCount else {
            throw .malformed("the \(enc) initialization vector must be \(enc.ivByteCount) bytes, got \(iv.count)")
        }
        guard tag.count == enc.tagByteCount else {
            let what = enc.isGCM ? "the GCM tag must be 16 bytes" : "the \(enc) tag must be \(enc.tagByteCount) bytes (truncated tags are refused)"
            throw .malformed("\(what), got \(tag.count)")
        }
        if !enc.isGCM, ciphertext.isEmpty || ciphertext.count % 16 != 0 {
            throw .malformed("the \(enc) ciphertext must be whole 16-byte blocks, got \(ciphertext.count) bytes")
        }
    }
}
