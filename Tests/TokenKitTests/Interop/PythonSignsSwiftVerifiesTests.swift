import Foundation
import Testing
import TokenKitTestSupport
import TokenKit

/// Python (interop.py: `cryptography` + a hand-written JWS) generates keys in every format
/// and signs tokens for every algorithm; TokenKit must verify each genuine token with the
/// key read from each format, and refuse each forged twin.
@Suite("Interop: Python signs, TokenKit verifies", .enabled(if: PythonInterop.enabled, PythonInterop.skipMessage))
struct PythonSignsSwiftVerifiesTests {
    /// Loads a verification key from a file written by interop.py.
    static func verifier(format: String, path: String) throws -> JWTVerifier {
        let options = ValidationOptions(issuers: ["interop-python"], clock: FixedClock(unixTime: 1_800_000_000))
        if format == "raw" {
            return JWTVerifier(key: try JWTKey.hmac(secret: Array(try Data(contentsOf: URL(fileURLWithPath: path)))), options: options)
        }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        switch format {
        case "jwks": return JWTVerifier(keys: try JWKSet(json: text), options: options)
        case "jwk", "jwk-public": return JWTVerifier(key: try JWTKey(jwk: text), options: options)
        case "jwk-private": return JWTVerifier(key: try JWTKey(jwk: text).publicKey(), options: options)
        case "pkcs8", "pkcs1", "sec1", "spki", "pkcs1-public", "x509": return JWTVerifier(key: try JWTKey(pem: text), options: options)
        default: throw CocoaError(.featureUnsupported)
        }
    }

    @Test("every Python token verifies with every key format, and every forged twin is refused")
    func verifyAll() async throws {
        guard PythonInterop.requireAvailable() else { return }
        let dir = try PrivateTemporaryDirectory(prefix: "tokenkit-interop")
        defer { withExtendedLifetime(dir) {} }
        let run = try await PythonInterop.run(["generate", dir.path])
        try #require(run.status == 0, "interop.py generate failed: \(run.stderr)")
        let manifest = try JSONDecoder().decode(PythonInterop.Manifest.self,
                                                from: Data(contentsOf: URL(fileURLWithPath: dir.file("manifest.json"))))
        var covered: Set<String> = [], formats: Set<String> = []
        for c in manifest.cases {
            let label = "\(c.alg) \(c.format) \(c.valid ? "genuine" : "forged")"
            let verifier: JWTVerifier
            do { verifier = try Self.verifier(format: c.format, path: c.keyFile) } catch {
                Issue.record("\(label): TokenKit cannot load the key: \(error)")
                continue
            }
            do {
                let verified = try verifier.verify(c.token)
                #expect(c.valid, "\(label): a forged token was accepted")
                #expect(verified.payload == Array(c.payload.utf8), "\(label): payload bytes differ")
                #expect(verified.claims["sub"] == .string("\(c.alg)/\(c.format)"), "\(label)")
                #expect(verified.claims["text"] == .string("caf\u{e9} \u{20ac} \u{1F600}"), "\(label)")
                covered.insert(c.alg)
                formats.insert(c.format)
            } catch {
                #expect(!c.valid, "\(label): refused: \(error.code) \(error.reason)")
                if !c.valid { #expect(error.code == .badSignature, "\(label): \(error.code)") }
            }
        }
        #expect(covered == Set(PythonInterop.algorithmNames))
        #expect(formats == ["raw", "jwk", "jwks", "pkcs8", "pkcs1", "sec1", "spki", "pkcs1-public", "x509", "jwk-public", "jwk-private"])
        #expect(manifest.cases.count == 194)
    }
}
