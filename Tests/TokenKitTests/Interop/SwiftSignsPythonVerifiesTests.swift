import Foundation
import Testing
import TokenKitTestSupport
import TokenKit

/// TokenKit generates keys and signs tokens for every algorithm, exports the keys (PKCS#8
/// PEM, SPKI PEM, public and private JWK, JWKS); Python (interop.py) loads them with its
/// own parsers and verifies each token by hand, and must refuse each forged twin.
@Suite("Interop: TokenKit signs, Python verifies", .enabled(if: PythonInterop.enabled, PythonInterop.skipMessage))
struct SwiftSignsPythonVerifiesTests {
    static func key(for name: String) throws -> (JWTKey, JWTAlgorithm) {
        switch name {
        case "EdDSA-Ed25519": return (try JWTKey.generate(for: .eddsa), .eddsa)
        case "EdDSA-Ed448": return (try JWTKey.generateEd448(), .eddsa)
        default:
            let algorithm = try #require(JWTAlgorithm(name: name))
            return (try JWTKey.generate(for: algorithm), algorithm)
        }
    }

    @Test("every TokenKit token verifies in Python with every exported key format")
    func verifyAll() async throws {
        guard PythonInterop.requireAvailable() else { return }
        let dir = try PrivateTemporaryDirectory(prefix: "tokenkit-interop")
        defer { withExtendedLifetime(dir) {} }
        var cases: [PythonInterop.Case] = []
        for name in PythonInterop.algorithmNames {
            let (key, algorithm) = try Self.key(for: name)
            var files: [(String, String)]
            if algorithm.isHMAC {
                let decoy = try JWTKey.generate(for: algorithm, keyID: "decoy").jwkObject(includingPrivate: true)
                var mine = try key.jwkObject(includingPrivate: true)
                mine["kid"] = .string("swift")
                files = [("jwk", try key.jwk(includingPrivate: true)),
                         ("jwks", JSONText.keySet([decoy, mine]))]
            } else {
                let decoy = try (name == "EdDSA-Ed448" ? JWTKey.generateEd448(keyID: "decoy") : JWTKey.generate(for: algorithm, keyID: "decoy")).jwkObject()
                files = [("pkcs8", try key.privateKeyPEM()), ("spki", try key.publicKeyPEM()),
                         ("jwk-public", try key.jwk()), ("jwk-private", try key.jwk(includingPrivate: true)),
                         ("jwks", JSONText.keySet([decoy, try key.withKeyID("swift").jwkObject()]))]
            }
            for (format, contents) in files {
                let path = dir.file("\(name).\(format)")
                try contents.write(toFile: path, atomically: true, encoding: .utf8)
                let signingKey = format == "jwks" ? key.withKeyID("swift") : key
                let claims = JWTClaims(JSONObject([
                    ("iss", .string("interop-swift")), ("sub", .string("\(name)/\(format)")),
                    ("exp", .number(JSONNumber(Int64(4_102_444_800)))), ("text", .string("caf\u{e9} \u{20ac} \u{1F600}")),
                ]))
                let token = try JWTSigner(key: signingKey, algorithm: algorithm).sign(claims)
                let payload = String(decoding: try Base64URL.decode(token.split(separator: ".")[1]), as: UTF8.self)
                cases.append(.init(alg: name, format: format, keyFile: path, token: token, payload: payload, valid: true))
                let parts = token.split(separator: ".")
                let forged = "\(parts[0]).\(Base64URL.encode(Array(payload.replacingOccurrences(of: "interop-swift", with: "interop-swifT").utf8))).\(parts[2])"
                cases.append(.init(alg: name, format: format, keyFile: path, token: forged, payload: "", valid: false))
            }
        }
        let manifestURL = URL(fileURLWithPath: dir.file("manifest.json")), resultURL = URL(fileURLWithPath: dir.file("result.json"))
        try JSONEncoder().encode(PythonInterop.Manifest(cases: cases)).write(to: manifestURL)
        let run = try await PythonInterop.run(["verify", manifestURL.path, resultURL.path])
        try #require(run.status == 0, "interop.py verify failed: \(run.stderr)")
        let results = try JSONDecoder().decode(PythonInterop.Results.self, from: Data(contentsOf: resultURL)).results
        try #require(results.count == cases.count)
        for (c, result) in zip(cases, results) {
            if c.valid {
                #expect(result.ok, "Python refused TokenKit's \(c.alg) token with the \(c.format) key")
                #expect(result.payload == c.payload, "\(c.alg) \(c.format): payload differs")
            } else {
                #expect(!result.ok, "Python accepted a forged \(c.alg) token (\(c.format)): its verifier is not checking")
            }
        }
        let expectedCases: Int = 2 * (3 * 2 + 12 * 5)
        #expect(cases.count == expectedCases)
    }
}

/// JSON text for a key set built from exported JWK objects.
enum JSONText {
    static func keySet(_ keys: [JSONObject]) -> String {
        let set = JSONObject([("keys", .array(keys.map { .object($0) }))])
        // Round-trip through a JWKSet would drop secrets; write the members directly.
        return JSONValueText.render(.object(set))
    }
}

enum JSONValueText {
    static func render(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let b): b ? "true" : "false"
        case .number(let n): n.literal
        case .string(let s): "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        case .array(let a): "[" + a.map(render).joined(separator: ",") + "]"
        case .object(let o): "{" + o.map { render(.string($0.key)) + ":" + render($0.value) }.joined(separator: ",") + "}"
        }
    }
}
