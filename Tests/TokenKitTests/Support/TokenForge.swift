import TokenKit
import TokenKitCrypto

/// Builds hostile tokens whose only defect is the one under test: parts are assembled by
/// hand and then carry a correct HMAC-SHA256 over exactly the bytes sent, so a refusal can
/// only come from the defect (and never from a wrong signature).
enum TokenForge {
    /// The HS256 secret every forged token is signed with (32 bytes).
    static let secret: [UInt8] = Array("forge-secret-0123456789abcdefXYZ".utf8)
    /// A clock well inside every forged token's lifetime.
    static let now: Double = 1_700_000_000

    static func key() throws -> JWTKey { try JWTKey.hmac(secret: secret) }

    /// A verifier for forged tokens: exp not required, fixed clock.
    static func verifier(_ options: ValidationOptions = ValidationOptions(requiredClaims: [], clock: FixedClock(unixTime: now))) throws -> JWTVerifier {
        JWTVerifier(key: try key(), options: options)
    }

    /// The base64url HMAC-SHA256 of `signingInput` under ``secret``.
    static func mac(_ signingInput: String) -> String {
        mac(Array(signingInput.utf8))
    }

    static func mac(_ signingInput: [UInt8]) -> String { mac(secret: secret, signingInput) }

    /// The base64url HMAC-SHA256 of `signingInput` under any `secret`, computed with the
    /// wrapper directly so that no TokenKit-level check can interfere.
    static func mac(secret: [UInt8], _ signingInput: String) -> String { mac(secret: secret, Array(signingInput.utf8)) }

    static func mac(secret: [UInt8], _ signingInput: [UInt8]) -> String {
        let key = try! HMACKey(secret: SecureBytes(secret), digest: .sha256)
        return Base64URL.encode(try! key.authenticationCode(for: signingInput))
    }

    /// `headerPart.payloadPart.MAC`, the parts taken verbatim (already "encoded").
    static func signParts(_ headerPart: String, _ payloadPart: String) -> String {
        "\(headerPart).\(payloadPart).\(mac("\(headerPart).\(payloadPart)"))"
    }

    /// A token whose claims are `members` (in order), signed HS256 with ``key()`` by the
    /// library's own signer: for the tests of claim validation, where the signature is not the
    /// subject.
    static func signed(_ members: [(String, JSONValue)], header: JWTHeaderFields = JWTHeaderFields()) throws -> String {
        try JWTSigner(key: try key()).sign(JWTClaims(JSONObject(members)), header: header)
    }

    /// A token from raw header and payload JSON text (any bytes), encoded canonically.
    static func token(header: String = #"{"alg":"HS256"}"#, payload: String = #"{"sub":"alice"}"#) -> String {
        token(headerBytes: Array(header.utf8), payloadBytes: Array(payload.utf8))
    }

    static func token(headerBytes: [UInt8], payloadBytes: [UInt8]) -> String {
        signParts(Base64URL.encode(headerBytes), Base64URL.encode(payloadBytes))
    }
}
