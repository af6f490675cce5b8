import Foundation
import Testing
import TokenKit

/// Every JWTError reason names its cause, and none contains key material, secrets or the
/// token's signature: errors end up in logs.
@Suite("Errors: named causes, no key material")
struct ErrorHygieneTests {
    static let secretText = "hygiene-secret-THAT-must-never-leak-0123456789"
    static var secret: [UInt8] { Array(secretText.utf8) }

    /// Every rendering of `bytes` an error could leak.
    static func renderings(_ bytes: [UInt8]) -> [String] {
        let hex = bytes.map { String(format: "%02x", $0) }.joined()
        var out = [Base64URL.encode(bytes), Data(bytes).base64EncodedString(), hex, hex.uppercased()]
        if let text = String(bytes: bytes, encoding: .utf8) { out.append(text) }
        // Shorter fragments too: a truncated secret is still a leak.
        out.append(String(Base64URL.encode(bytes).prefix(16)))
        return out
    }

    static func assertClean(_ error: JWTError?, of secrets: [[UInt8]], sourceLocation: SourceLocation = #_sourceLocation) {
        guard let error else { return }
        #expect(!error.reason.isEmpty, sourceLocation: sourceLocation)
        #expect(error.description == error.reason, sourceLocation: sourceLocation)
        for secret in secrets {
            for rendering in renderings(secret) where rendering.count >= 8 {
                #expect(!error.reason.contains(rendering), "error leaks key material: \(error.reason)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test("verification failures with an HMAC key name the cause and leak neither secret nor signature")
    func hmacFailures() throws {
        let key = try JWTKey.hmac(secret: Self.secret)
        let signer = try JWTSigner(key: key)
        let token = try signer.sign(JWTClaims(JSONObject([("exp", .number(JSONNumber(Int64(100)))), ("iss", .string("me"))])))
        let signature = try Base64URL.decode(token.split(separator: ".")[2])
        var options = ValidationOptions(clock: FixedClock(unixTime: 50))
        let expectations: [(JWTError.Code, String, () throws -> Void)] = [
            (.badSignature, "signature", { _ = try JWTVerifier(key: try JWTKey.hmac(secret: Array(Self.secret.reversed())), options: options).verify(token) }),
            (.expired, "expired", { _ = try JWTVerifier(key: key, options: ValidationOptions(clock: FixedClock(unixTime: 200))).verify(token) }),
            (.issuerMismatch, "issuer", { options.issuers = ["you"]; _ = try JWTVerifier(key: key, options: options).verify(token) }),
            (.malformed, "part 3", { _ = try JWTVerifier(key: key).verify(token + "=") }),
            (.unsecured, "none", { _ = try JWTVerifier(key: key).verify(TestSupport.b64(#"{"alg":"none"}"#) + ".e30.") }),
            (.noMatchingKey, "RS256", { _ = try JWTVerifier(key: key).verify(TestSupport.b64(#"{"alg":"RS256"}"#) + ".e30.AAAA") }),
            (.tooLarge, "limit", { _ = try JWTVerifier(key: key).verify(String(repeating: "A", count: 40_000)) }),
        ]
        for (code, cause, body) in expectations {
            let error = expectJWTError(code) { try body() }
            #expect(error?.reason.localizedCaseInsensitiveContains(cause) == true, "\(code): \(error?.reason ?? "")")
            Self.assertClean(error, of: [Self.secret, signature])
        }
    }

    @Test("JWK errors do not echo private members")
    func jwkErrors() throws {
        let key = try JWTKey.generate(for: .es256)
        var object = try key.jwkObject(includingPrivate: true)
        let d = try Base64URL.decode(object["d"]!.stringValue!)
        // d from another key: halves do not match.
        object["d"] = try JWTKey.generate(for: .es256).jwkObject(includingPrivate: true)["d"]
        let otherD = try Base64URL.decode(object["d"]!.stringValue!)
        Self.assertClean(expectJWTError(.invalidKey) { try JWTKey(jwk: object) }, of: [d, otherD])
        // A non-canonical d (unused bits set in the last character).
        var text = object["d"]!.stringValue!
        text.removeLast()
        text.append("_")
        object["d"] = .string(text)
        let error = expectJWTError(.invalidKey) { try JWTKey(jwk: object) }
        #expect(error?.reason.contains("\"d\"") == true)
        #expect(error?.reason.contains(text) == false)
        Self.assertClean(error, of: [otherD])
        // An oct key that is too short: the length is named, the bytes are not.
        let short = Array("short-secret-20bytes".utf8)
        let octError = expectJWTError(.invalidKey) { try JWTKey(jwk: #"{"kty":"oct","k":"\#(Base64URL.encode(short))"}"#) }
        #expect(octError?.reason.contains("20 bytes") == true)
        Self.assertClean(octError, of: [short])
    }

    @Test("PEM errors do not echo the PEM body")
    func pemErrors() throws {
        let pem = try JWTKey.generate(for: .es256).privateKeyPEM()
        var lines = pem.split(separator: "\n").map(String.init)
        lines[1] = String(lines[1].reversed())
        let corrupted = lines.joined(separator: "\n")
        let error = expectJWTError(.invalidKey) { try JWTKey(pem: corrupted) }
        for line in lines.dropFirst().dropLast() where line.count >= 8 {
            #expect(error?.reason.contains(line) == false, "PEM line leaked: \(error?.reason ?? "")")
            #expect(error?.reason.contains(line.prefix(12)) == false)
        }
    }

    @Test("keys never print their material")
    func keyDescriptions() throws {
        let hmac = try JWTKey.hmac(secret: Self.secret, keyID: "kid-1")
        #expect(hmac.description.contains("\(Self.secret.count) bytes"))
        for rendering in Self.renderings(Self.secret) { #expect(!hmac.description.contains(rendering)) }
        let ec = try JWTKey.generate(for: .es256)
        let d = try Base64URL.decode(try ec.jwkObject(includingPrivate: true)["d"]!.stringValue!)
        for rendering in Self.renderings(d) { #expect(!ec.description.contains(rendering)) }
        #expect(!"\(ec)".contains("PRIVATE KEY"))
    }
}
