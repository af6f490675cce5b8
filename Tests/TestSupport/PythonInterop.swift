import Foundation
import Testing

/// Runs Tests/Interop/interop.py, an independent JWS implementation in Python on top of
/// the `cryptography` package (installed by scripts/test with
/// `python3 -m pip install --quiet cryptography`).
///
/// When python3 or `cryptography` is missing the interop tests are skipped with a visible
/// message, unless TOKENKIT_REQUIRE_INTEROP=1, in which case they fail.
public enum PythonInterop {
    /// Tests/Interop/interop.py.
    public static let script = SourceTree.root.appendingPathComponent("Tests/Interop/interop.py")

    /// Whether TOKENKIT_REQUIRE_INTEROP=1 (missing Python is then a failure, not a skip).
    public static let required = ProcessInfo.processInfo.environment["TOKENKIT_REQUIRE_INTEROP"] == "1"
    /// Whether `interop.py check` succeeds (python3 with `cryptography`).
    /// Checked once, blocking (a one-time wait on first use).
    public static let available: Bool = (try? ChildProcess(
        "/usr/bin/env", ["python3", script.path, "check"], stdout: .discard).runBlocking().status) == 0
    /// Whether interop tests run at all (they then fail if Python is unusable).
    public static let enabled = available || required
    /// The visible reason interop suites are skipped.
    public static let skipMessage: Comment = "python3 with the 'cryptography' package is not available: interop tests skipped (set TOKENKIT_REQUIRE_INTEROP=1 to make this a failure)"

    /// Records a failure when interop is required but Python is unusable.
    public static func requireAvailable(sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        if !available {
            Issue.record("TOKENKIT_REQUIRE_INTEROP=1 but python3 with 'cryptography' is not available (install: python3 -m pip install --quiet cryptography)", sourceLocation: sourceLocation)
        }
        return available
    }

    /// Runs `python3 interop.py ARGS…`; returns the exit status and stderr.
    @discardableResult
    public static func run(_ arguments: [String]) async throws -> (status: Int32, stderr: String) {
        let outcome = try await ChildProcess("/usr/bin/env", ["python3", script.path] + arguments, stdout: .discard).run()
        return (outcome.status, outcome.stderrText)
    }

    /// A fresh temporary directory, removed by the caller.
    public static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tokenkit-interop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// One case of the manifest exchanged with interop.py.
    public struct Case: Codable {
        /// interop.py's name: a JWS alg, or EdDSA-Ed25519 / EdDSA-Ed448.
        public var alg: String
        /// The key file's format (`raw`, `pkcs8`, `jwk`, `jwks`, …).
        public var format: String
        /// The key file's path.
        public var keyFile: String
        /// The compact JWS.
        public var token: String
        /// The payload JSON a verifier must print for a genuine token.
        public var payload: String
        /// Whether the token is genuine (false: forged).
        public var valid: Bool

        /// A case with every field given.
        public init(alg: String, format: String, keyFile: String, token: String, payload: String, valid: Bool) {
            (self.alg, self.format, self.keyFile, self.token, self.payload, self.valid) = (alg, format, keyFile, token, payload, valid)
        }
    }

    /// The cases file interop.py reads and writes (`manifest.json`).
    public struct Manifest: Codable {
        /// The cases, in order.
        public var cases: [Case]
        /// A manifest of `cases`.
        public init(cases: [Case]) { self.cases = cases }
    }

    /// interop.py's verdicts, one per case in manifest order.
    public struct Results: Codable {
        /// One verdict: accepted or not, and the payload it saw.
        public struct Result: Codable {
            /// Whether Python accepted the token.
            public var ok: Bool
            /// The payload Python decoded, when it accepted.
            public var payload: String?
        }
        /// The verdicts.
        public var results: [Result]
    }

    /// Every algorithm name interop.py knows, in its spelling.
    public static let algorithmNames = ["HS256", "HS384", "HS512", "RS256", "RS384", "RS512", "PS256", "PS384", "PS512",
                                 "ES256", "ES384", "ES512", "ES256K", "EdDSA-Ed25519", "EdDSA-Ed448"]
}
