import Foundation
import Testing

/// Runs Tests/Interop/interop.py, an independent JWS implementation in Python on top of
/// the `cryptography` package (installed by scripts/test with
/// `python3 -m pip install --quiet cryptography`).
///
/// When python3 or `cryptography` is missing the interop tests are skipped with a visible
/// message, unless TOKENKIT_REQUIRE_INTEROP=1, in which case they fail.
enum PythonInterop {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let script = packageRoot.appendingPathComponent("Tests/Interop/interop.py")

    static let required = ProcessInfo.processInfo.environment["TOKENKIT_REQUIRE_INTEROP"] == "1"
    static let available: Bool = (try? run(["check"]).status) == 0
    /// Whether interop tests run at all (they then fail if Python is unusable).
    static let enabled = available || required
    static let skipMessage: Comment = "python3 with the 'cryptography' package is not available: interop tests skipped (set TOKENKIT_REQUIRE_INTEROP=1 to make this a failure)"

    /// Records a failure when interop is required but Python is unusable.
    static func requireAvailable(sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        if !available {
            Issue.record("TOKENKIT_REQUIRE_INTEROP=1 but python3 with 'cryptography' is not available (install: python3 -m pip install --quiet cryptography)", sourceLocation: sourceLocation)
        }
        return available
    }

    /// Runs `python3 interop.py ARGS…`; returns the exit status and stderr.
    @discardableResult
    static func run(_ arguments: [String]) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path] + arguments
        let stderr = Pipe()
        process.standardError = stderr
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let errorData = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: errorData, as: UTF8.self))
    }

    /// A fresh temporary directory, removed by the caller.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tokenkit-interop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// One case of the manifest exchanged with interop.py.
    struct Case: Codable {
        /// interop.py's name: a JWS alg, or EdDSA-Ed25519 / EdDSA-Ed448.
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

    /// Every algorithm name interop.py knows, in its spelling.
    static let algorithmNames = ["HS256", "HS384", "HS512", "RS256", "RS384", "RS512", "PS256", "PS384", "PS512",
                                 "ES256", "ES384", "ES512", "ES256K", "EdDSA-Ed25519", "EdDSA-Ed448"]
}
