import Foundation
import Testing
import TokenKitTestSupport

/// The CLI against an independent implementation (Tests/Interop/interop.py: Python
/// `cryptography` plus a hand-written JWS): Python signs and `tokenkit verify` checks, and
/// `tokenkit sign` signs and Python checks, for every algorithm and every key format.
/// Skipped with a visible message when python3/cryptography is missing, unless
/// TOKENKIT_REQUIRE_INTEROP=1 (then a failure).
@Suite("Interop: tokenkit CLI and Python", .enabled(if: PythonInterop.enabled, PythonInterop.skipMessage))
struct InteropCLITests {
    static func verifyOption(_ format: String) -> String {
        switch format {
        case "raw": "--secret"
        case "jwks": "--jwks"
        default: "--key"
        }
    }

    static func generate(in dir: PrivateTemporaryDirectory) async throws -> [PythonInterop.Case] {
        let run = try await PythonInterop.run(["generate", dir.path])
        try #require(run.status == 0, "interop.py generate failed: \(run.stderr)")
        return try JSONDecoder().decode(PythonInterop.Manifest.self, from: Data(contentsOf: URL(fileURLWithPath: dir.file("manifest.json")))).cases
    }

    @Test("Python-signed tokens: tokenkit verify accepts each genuine one (printing its claims) and rejects each forgery")
    func pythonSignsCLIVerifies() async throws {
        guard PythonInterop.requireAvailable() else { return }
        let dir = try PrivateTemporaryDirectory()
        let cases = try await Self.generate(in: dir)
        try #require(cases.count == 194)
        for c in cases {
            let label = "\(c.alg) \(c.format) \(c.valid ? "genuine" : "forged")"
            let result = try await TokenKitCLI().run(["verify", Self.verifyOption(c.format), c.keyFile, "--iss", "interop-python", "--require", "exp", "--", c.token], environment: .inherited)
            if c.valid {
                #expect(result.status == 0, "\(label): exit \(result.status): \(result.stderr)")
                #expect(result.stdoutText == c.payload + "\n", "\(label): stdout is not the payload object")
            } else {
                #expect(result.status == 1, "\(label): exit \(result.status)")
                #expect(result.stdout.isEmpty && result.stderrLines.count == 1 && result.stderr.hasPrefix("error:"), "\(label)")
            }
        }
    }

    @Test("tokenkit sign with Python-made private keys (PKCS#8, PKCS#1, SEC1, JWK) and its own keygen keys: Python verifies")
    func cliSignsPythonVerifies() async throws {
        guard PythonInterop.requireAvailable() else { return }
        let dir = try PrivateTemporaryDirectory()
        let generated = try await Self.generate(in: dir)
        var cases: [PythonInterop.Case] = []
        // 1. Python's private keys in every private format.
        let privateFormats: Set<String> = ["raw", "jwk", "pkcs8", "pkcs1", "sec1", "jwk-private"]
        for source in generated where source.valid && privateFormats.contains(source.format) {
            let jwsAlg = source.alg.hasPrefix("EdDSA") ? "EdDSA" : source.alg
            let option = source.format == "raw" ? "--secret" : "--key"
            let claims = #"{"iss":"interop-cli","sub":"\#(source.alg)/\#(source.format)","text":"caf\#u{e9} \#u{1F600}"}"#
            let sign = try await TokenKitCLI().run(["sign", "--alg", jwsAlg, option, source.keyFile, claims], environment: .inherited)
            #expect(sign.status == 0, "sign \(source.alg) \(source.format): \(sign.stderr)")
            let token = sign.stdoutText.trimmingCharacters(in: .newlines)
            // Python checks with the same key file (HS jwk: the secret inside it).
            cases.append(PythonInterop.Case(alg: source.alg, format: source.format, keyFile: source.keyFile, token: token, payload: claims, valid: true))
            cases.append(PythonInterop.Case(alg: source.alg, format: source.format, keyFile: source.keyFile, token: Self.forge(token), payload: "", valid: false))
        }
        // 2. Keys from `tokenkit keygen`, every algorithm (Ed448 via --curve).
        let algorithms = ["HS256", "HS384", "HS512", "RS256", "RS384", "RS512", "PS256", "PS384", "PS512",
                          "ES256", "ES384", "ES512", "ES256K", "EdDSA-Ed25519", "EdDSA-Ed448"]
        for name in algorithms {
            let jwsAlg = name.hasPrefix("EdDSA") ? "EdDSA" : name
            let path = dir.file("keygen-\(name)")
            let keygen = try await TokenKitCLI().run(["keygen", "--alg", jwsAlg, "--out", path] + (name == "EdDSA-Ed448" ? ["--curve", "Ed448"] : []), environment: .inherited)
            #expect(keygen.status == 0, "keygen \(name): \(keygen.stderr)")
            let isHMAC = name.hasPrefix("HS")
            let claims = #"{"iss":"interop-cli","sub":"\#(name)/keygen"}"#
            let sign = try await TokenKitCLI().run(["sign", "--alg", jwsAlg, isHMAC ? "--secret" : "--key", path, claims], environment: .inherited)
            #expect(sign.status == 0, "sign \(name): \(sign.stderr)")
            let token = sign.stdoutText.trimmingCharacters(in: .newlines)
            cases.append(PythonInterop.Case(alg: name, format: isHMAC ? "raw" : "pkcs8", keyFile: path, token: token, payload: claims, valid: true))
            cases.append(PythonInterop.Case(alg: name, format: isHMAC ? "raw" : "pkcs8", keyFile: path, token: Self.forge(token), payload: "", valid: false))
        }
        let expectedCases: Int = 2 * (3 * 2 + 6 * 3 + 4 * 3 + 2 * 2 + 15)
        #expect(cases.count == expectedCases)
        let manifest = dir.file("cli-manifest.json"), resultPath = dir.file("cli-result.json")
        try JSONEncoder().encode(PythonInterop.Manifest(cases: cases)).write(to: URL(fileURLWithPath: manifest))
        let run = try await PythonInterop.run(["verify", manifest, resultPath])
        try #require(run.status == 0, "interop.py verify failed: \(run.stderr)")
        let results = try JSONDecoder().decode(PythonInterop.Results.self, from: Data(contentsOf: URL(fileURLWithPath: resultPath))).results
        try #require(results.count == cases.count)
        for (c, result) in zip(cases, results) {
            if c.valid {
                #expect(result.ok, "Python refused tokenkit's \(c.alg) token (\(c.format) key)")
                #expect(result.payload == c.payload, "\(c.alg) \(c.format): payload differs")
            } else {
                #expect(!result.ok, "Python accepted a forged \(c.alg) token: its verifier is not checking")
            }
        }
    }

    /// The token with one payload character changed (still canonical base64url).
    static func forge(_ token: String) -> String {
        var parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, var first = parts[1].first else { return token + "x" }
        first = first == "e" ? "f" : "e"
        parts[1] = String(first) + parts[1].dropFirst()
        return parts.joined(separator: ".")
    }
}
