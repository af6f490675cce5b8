import TokenKitStore
internal import TokenKitPrimitives

/// The character sets tokens from a token endpoint must use, checked when they are received
/// (by every grant) and before a stored access token is handed out.
///
/// - Access tokens: RFC 6750 §2.1 `b64token` (`1*( ALPHA / DIGIT / "-" / "." / "_" / "~" /
///   "+" / "/" ) *"="`), since they are sent as `Authorization: Bearer <token>`; so an access
///   token never holds a space, a quote, CR/LF or any other control character.
/// - Refresh tokens: RFC 6749 Appendix A `1*VSCHAR` (printable ASCII, `%x20-7E`).
/// - ID tokens: a JWT in compact form, three (JWS) or five (JWE) base64url segments joined
///   by dots (RFC 7515 §7.1, RFC 7516 §7.1), the first non-empty.
///
/// Guarantees: a token that passes can be printed on a terminal, put in a shell variable or
/// an HTTP header without smuggling anything; the error names the field, the offset and the
/// offending byte, never the token. Does not: check that a token is valid, signed or unexpired.
public enum TokenCharacterSet {
    /// Throws ``AuthError/Code/invalidResponse`` unless `token` is a non-empty RFC 6750 b64token.
    public static func checkAccessToken(_ token: String, field: String = "access_token") throws(AuthError) {
        if let problem = accessTokenProblem(token, field: field) { throw .invalidResponse(problem) }
    }

    /// Throws ``AuthError/Code/invalidResponse`` unless `token` is non-empty printable ASCII
    /// (RFC 6749 Appendix A VSCHAR).
    public static func checkRefreshToken(_ token: String, field: String = "refresh_token") throws(AuthError) {
        if let problem = refreshTokenProblem(token, field: field) { throw .invalidResponse(problem) }
    }

    /// Throws ``AuthError/Code/invalidResponse`` unless `token` has the shape of a compact JWT:
    /// three or five base64url segments separated by dots, the first one non-empty.
    public static func checkIDToken(_ token: String, field: String = "id_token") throws(AuthError) {
        if let problem = idTokenProblem(token, field: field) { throw .invalidResponse(problem) }
    }

    /// Checks every token `tokenSet` holds with the rule for its kind.
    public static func check(_ tokenSet: TokenSet) throws(AuthError) {
        try checkAccessToken(tokenSet.accessToken)
        if let refresh = tokenSet.refreshToken { try checkRefreshToken(refresh) }
        if let id = tokenSet.idToken { try checkIDToken(id) }
    }

    /// Why `token` is not a b64token (one line, without the token), or `nil` when it is one.
    public static func accessTokenProblem(_ token: String, field: String = "access_token") -> String? {
        let bytes = Array(token.utf8)
        guard !bytes.isEmpty else { return "\"\(field)\" is empty" }
        var index = 0
        while index < bytes.count, CharacterClass.isB64Token(bytes[index]) { index += 1 }
        guard index > 0 else { return refused(field, bytes, at: 0, rule: "a Bearer token (RFC 6750 §2.1)") }
        while index < bytes.count, bytes[index] == UInt8(ascii: "=") { index += 1 }
        guard index == bytes.count else { return refused(field, bytes, at: index, rule: "a Bearer token (RFC 6750 §2.1)") }
        return nil
    }

    /// Why `token` is not `1*VSCHAR`, or `nil` when it is.
    public static func refreshTokenProblem(_ token: String, field: String = "refresh_token") -> String? {
        let bytes = Array(token.utf8)
        guard !bytes.isEmpty else { return "\"\(field)\" is empty" }
        if let bad = bytes.firstIndex(where: { !CharacterClass.isVSCHAR($0) }) {
            return refused(field, bytes, at: bad, rule: "a refresh token (RFC 6749 Appendix A)")
        }
        return nil
    }

    /// Why `token` is not a compact JWT, or `nil` when it has that shape.
    public static func idTokenProblem(_ token: String, field: String = "id_token") -> String? {
        let bytes = Array(token.utf8)
        guard !bytes.isEmpty else { return "\"\(field)\" is empty" }
        if let bad = bytes.firstIndex(where: { !CharacterClass.isBase64URL($0) && $0 != UInt8(ascii: ".") }) {
            return refused(field, bytes, at: bad, rule: "a JWT (RFC 7519)")
        }
        let segments = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard segments.count == 3 || segments.count == 5, !(segments.first?.isEmpty ?? true) else {
            return "\"\(field)\" is not a JWT in compact form (\(segments.count) segments)"
        }
        return nil
    }

    /// The reason for a byte outside the rule: names the field, the offset and the byte only.
    private static func refused(_ field: String, _ bytes: [UInt8], at offset: Int, rule: String) -> String {
        let byte = offset < bytes.count ? bytes[offset] : 0
        let hex = String(byte, radix: 16, uppercase: true)
        return "\"\(field)\" has a character not allowed in \(rule): byte 0x\(hex.count == 1 ? "0" : "")\(hex) at offset \(offset)"
    }
}
