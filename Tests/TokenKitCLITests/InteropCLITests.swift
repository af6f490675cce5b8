import Foundation
import Testing

/// The CLI against an independent implementation (Tests/Interop/interop.py: Python
/// `cryptography` plus a hand-written JWS): Python signs and `tokenkit verify` checks, and
/// `tokenkit sign` signs and Python checks, for every algorithm and every key format.
/// Skipped with a visible message when python3/cryptography is missing, unless
/// TOKENKIT_REQUIRE_INTEROP=1 (then a failure).
@Suite("Interop: tokenkit CLI and Python", .enabled(if: PythonPeer.enabled, PythonPeer.skipMessage))
struct InteropCLITests {
    struct Case: Codable {
        var alg: String
        var format: String
        var keyFile: String
        var token: String
        var payload: String
        var valid: Bool
    }
    struct Manifest: Codable { var cases: [Case] }
    struct Results: Codable {
        struct Result: Codable { var ok: Bool; var payload: String? }
        var results: [Result]
    }

    static func verifyOption(_ format: String) -> String {
        switch format {
        case "raw": "--secret"
        case "jwks": "--jwks"
        default: "--key"
        }
    }

    static func generate(in dir: TemporaryDirectory) throws -> [Case] {
        let run = try PythonPeer.run(["generate", dir.path])
        try #require(run.status == 0, "interop.py generate failed: \(run.stderr)")
        return try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: URL(fileURLWithPath: dir.file("manifest.json")))).cases
    }

    @Test("Python-signed tokens: tokenkit verify accepts each genuine one (printing its claims) and rejects each forgery")
    func pythonSignsCLIVerifies() throws {
        guard PythonPeer.requireAvailable() else { return }
        let dir = try TemporaryDirectory()
        let cases = try Self.generate(in: dir)
        try #require(cases.count == 194)
        for c in cases {
            let label = "\(c.alg) \(c.format) \(c.valid ? "genuine" : "forged")"
            let result = try CLIRunner.run(["verify", Self.verifyOption(c.format), c.keyFile, "--iss", "interop-python", "--require", "exp", "--", c.token])
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
    func cliSignsPythonVerifies() throws {
        guard PythonPeer.requireAvailable() else { return }
        let dir = try TemporaryDirectory()
        let generated = try Self.generate(in: dir)
        var cases: [Case] = []
        // 1. Python's private keys in every private format.
        let privateFormats: Set<String> = ["raw", "jwk", "pkcs8", "pkcs1", "sec1", "jwk-private"]
        for source in generated where source.valid && privateFormats.contains(source.format) {
            let jwsAlg = source.alg.hasPrefix("EdDSA") ? "EdDSA" : source.alg
            let option = source.format == "raw" ? "--secret" : "--key"
            let claims = #"{"iss":"interop-cli","sub":"\#(source.alg)/\#(source.format)","text":"caf\#u{e9} \#u{1F600}"}"#
            let sign = try CLIRunner.run(["sign", "--alg", jwsAlg, option, source.keyFile, claims])
            #expect(sign.status == 0, "sign \(source.alg) \(source.format): \(sign.stderr)")
            let token = sign.stdoutText.trimmingCharacters(in: .newlines)
            // Python checks with the same key file (HS jwk: the secret inside it).
            cases.append(Case(alg: source.alg, format: source.format, keyFile: source.keyFile, token: token, payload: claims, valid: true))
            cases.append(Case(alg: source.alg, format: source.format, keyFile: source.keyFile, token: Self.forge(token), payload: "", valid: false))
        }
        // 2. Keys from `tokenkit keygen`, every algorithm (Ed448 via --curve).
        let algorithms = ["HS256", "HS384", "HS512", "RS256", "RS384", "RS512", "PS256", "PS384", "PS512",
                          "ES256", "ES384", "ES512", "ES256K", "EdDSA-Ed25519", "EdDSA-Ed448"]
        for name in algorithms {
            let jwsAlg = name.hasPrefix("EdDSA") ? "EdDSA" : name
            let path = dir.file("keygen-\(name)")
            let keygen = try CLIRunner.run(["keygen", "--alg", jwsAlg, "--out", path] + (name == "EdDSA-Ed448" ? ["--curve", "Ed448"] : []))
            #expect(keygen.status == 0, "keygen \(name): \(keygen.stderr)")
            let isHMAC = name.hasPrefix("HS")
            let claims = #"{"iss":"interop-cli","sub":"\#(name)/keygen"}"#
            let sign = try CLIRunner.run(["sign", "--alg", jwsAlg, isHMAC ? "--secret" : "--key", path, claims])
            #expect(sign.status == 0, "sign \(name): \(sign.stderr)")
            let token = sign.stdoutText.trimmingCharacters(in: .newlines)
            cases.append(Case(alg: name, format: isHMAC ? "raw" : "pkcs8", keyFile: path, token: token, payload: claims, valid: true))
            cases.append(Case(alg: name, format: isHMAC ? "raw" : "pkcs8", keyFile: path, token: Self.forge(token), payload: "", valid: false))
        }
        #expect(cases.count == 2 * (3 * 2 + 6 * 3 + 4 * 3 + 2 * 2 + 15))
        let manifest = dir.file("cli-manifest.json"), resultPath = dir.file("cli-result.json")
        try JSONEncoder().encode(Manifest(cases: cases)).write(to: URL(fileURLWithPath: manifest))
        let run = try PythonPeer.run(["verify", manifest, resultPath])
        try #require(run.status == 0, "interop.py verify failed: \(run.stderr)")
        let results = try JSONDecoder().decode(Results.self, from: Data(contentsOf: URL(fileURLWithPath: resultPath))).results
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

/// Runs Tests/Interop/interop.py (installed prerequisites: python3 and
/// `python3 -m pip install --quiet cryptography`).
enum PythonPeer {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Interop/interop.py")
    static let required = ProcessInfo.processInfo.environment["TOKENKIT_REQUIRE_INTEROP"] == "1"
    static let available: Bool = (try? run(["check"]).status) == 0
    static let enabled = available || required
    static let skipMessage: Comment = "python3 with the 'cryptography' package is not available: CLI interop tests skipped (set TOKENKIT_REQUIRE_INTEROP=1 to make this a failure)"

    static func requireAvailable(sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        if !available {
            Issue.record("TOKENKIT_REQUIRE_INTEROP=1 but python3 with 'cryptography' is not available", sourceLocation: sourceLocation)
        }
        return available
    }

    static func run(_ arguments: [String]) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path] + arguments
        let stderr = Pipe()
        process.standardError = stderr
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
