import Testing
import TokenKit

/// A JWTError reason is "one line for people": untrusted text from a token (alg, kid, iss,
/// aud, sub, typ, crit names, duplicate member names) must not smuggle newlines or other
/// control characters into it, where they could forge log lines.
@Suite("Errors: reasons stay one line under hostile input")
struct ErrorReasonLineTests {
    static let hostile = "x\n2026-01-01 INFO forged\r\u{1B}[31m\u{7}"

    static func json(_ s: String) -> String { JSONValue.string(s).jsonText }

    static func assertOneLine(_ error: JWTError?, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let error else { return }
        let controls = error.reason.unicodeScalars.filter { $0.value < 0x20 || $0.value == 0x7F }
        #expect(controls.isEmpty, "reason has control characters: \(error.reason.debugDescription)", sourceLocation: sourceLocation)
    }

    @Test("header values echoed in reasons are cleaned")
    func headerValues() throws {
        let h = Self.json(Self.hostile)
        Self.assertOneLine(expectJWTError(.unsupportedAlgorithm) { try TokenForge.verifier().verify(TokenForge.token(header: #"{"alg":\#(h)}"#)) })
        Self.assertOneLine(expectJWTError(.noMatchingKey) {
            try JWTVerifier(keys: JWKSet(keys: [try TokenForge.key().withKeyID("k")]), options: ValidationOptions(requiredClaims: []))
                .verify(TokenForge.token(header: #"{"alg":"HS256","kid":\#(h)}"#))
        })
        Self.assertOneLine(expectJWTError(.unsupportedCritical) { try TokenForge.verifier().verify(TokenForge.token(header: #"{"alg":"HS256","crit":[\#(h)]}"#)) })
        var options = ValidationOptions(requiredClaims: [], clock: FixedClock(unixTime: TokenForge.now))
        options.type = "JWT"
        Self.assertOneLine(expectJWTError(.typeMismatch) { try TokenForge.verifier(options).verify(TokenForge.token(header: #"{"alg":"HS256","typ":\#(h)}"#)) })
    }

    @Test("claim values echoed in reasons are cleaned")
    func claimValues() throws {
        let h = Self.json(Self.hostile)
        var options = ValidationOptions(requiredClaims: [], clock: FixedClock(unixTime: TokenForge.now))
        options.issuers = ["good"]
        Self.assertOneLine(expectJWTError(.issuerMismatch) { try TokenForge.verifier(options).verify(TokenForge.token(payload: #"{"iss":\#(h)}"#)) })
        options = ValidationOptions(requiredClaims: [], clock: FixedClock(unixTime: TokenForge.now))
        options.audiences = ["good"]
        Self.assertOneLine(expectJWTError(.audienceMismatch) { try TokenForge.verifier(options).verify(TokenForge.token(payload: #"{"aud":[\#(h)]}"#)) })
        options = ValidationOptions(requiredClaims: [], clock: FixedClock(unixTime: TokenForge.now))
        options.subject = "good"
        Self.assertOneLine(expectJWTError(.subjectMismatch) { try TokenForge.verifier(options).verify(TokenForge.token(payload: #"{"sub":\#(h)}"#)) })
    }

    @Test("duplicate member names echoed in reasons are cleaned")
    func duplicateNames() throws {
        let h = Self.json(Self.hostile)
        Self.assertOneLine(expectJWTError(.malformed) { try TokenForge.verifier().verify(TokenForge.token(header: #"{"alg":"HS256",\#(h):1,\#(h):2}"#)) })
        Self.assertOneLine(expectJWTError(.malformed) { try TokenForge.verifier().verify(TokenForge.token(payload: #"{\#(h):1,\#(h):2}"#)) })
        Self.assertOneLine(expectJWTError(.invalidKey) { try JWTKey(jwk: #"{"kty":"oct",\#(h):1,\#(h):2}"#) })
    }

    @Test("JWK members echoed in reasons are cleaned")
    func jwkValues() throws {
        let h = Self.json(Self.hostile)
        Self.assertOneLine(expectJWTError(.invalidKey) { try JWTKey(jwk: #"{"kty":\#(h)}"#) })
        Self.assertOneLine(expectJWTError(.invalidKey) { try JWTKey(jwk: #"{"kty":"EC","crv":\#(h),"x":"AA","y":"AA"}"#) })
        let k = Base64URL.encode([UInt8](repeating: 1, count: 32))
        Self.assertOneLine(expectJWTError(.invalidKey) { try JWTKey(jwk: #"{"kty":"oct","k":"\#(k)","alg":\#(h)}"#) })
        Self.assertOneLine(expectJWTError(.invalidKey) { try JWTKey(jwk: #"{"kty":"oct","k":"\#(k)","use":\#(h)}"#) })
    }
}
