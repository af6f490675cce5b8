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
        try await run(script: "interop.py", arguments)
    }

    /// Runs `python3 Tests/Interop/NAME ARGS…` (interop.py or another peer beside it:
    /// `x5c_chains.py`, `jwe_peer.py`), awaited off the cooperative pool; returns the exit
    /// status and stderr.
    @discardableResult
    public static func run(script name: String, _ arguments: [String]) async throws -> (status: Int32, stderr: String) {
        let path = peerPath(name)
        let outcome = try await ChildProcess("/usr/bin/env", ["python3", path] + arguments, stdout: .discard).run(timeout: .seconds(300))
        return (outcome.status, outcome.stderrText)
    }

    /// The path of `Tests/Interop/NAME`.
    static func peerPath(_ name: String) -> String {
        script.deletingLastPathComponent().appendingPathComponent(name).path
    }

    /// Whether the JWE peer (`jwe_peer.py check`: joserfc, jwcrypto and cryptography) is usable.
    /// Checked once, blocking (a one-time wait on first use, like ``available``).
    public static let jwePeerAvailable: Bool = (try? ChildProcess(
        "/usr/bin/env", ["python3", peerPath("jwe_peer.py"), "check"], stdout: .discard).runBlocking(timeout: .seconds(300)).status) == 0
    /// Whether the JWE interop suites run (they then fail if the peer is unusable).
    public static let jwePeerEnabled = jwePeerAvailable || required
    /// The visible reason the JWE interop suites are skipped.
    public static let jwePeerSkipMessage: Comment = "python3 with joserfc and jwcrypto is not available: JWE interop tests skipped (set TOKENKIT_REQUIRE_INTEROP=1 to make this a failure)"

    /// Records a failure when interop is required but the JWE peer is unusable.
    public static func requireJWEPeer(sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        if !jwePeerAvailable {
            Issue.record("TOKENKIT_REQUIRE_INTEROP=1 but python3 with joserfc and jwcrypto is not available (scripts/install-prerequisites installs them)", sourceLocation: sourceLocation)
        }
        return jwePeerAvailable
    }

    /// Runs `x5c_chains.py generate` into a fresh private directory and returns the directory
    /// and its manifest (the scenarios the x5c suites check). The manifest's files live as long
    /// as the returned directory object: hold it while using them.
    public static func generateX5CChains() async throws -> (directory: PrivateTemporaryDirectory, manifest: X5CManifest) {
        let directory = try PrivateTemporaryDirectory(prefix: "tokenkit-interop")
        let run = try await run(script: "x5c_chains.py", ["generate", directory.path])
        guard run.status == 0 else { throw PeerFailed(description: "x5c_chains.py generate failed: \(run.stderr)") }
        let data = try Data(contentsOf: URL(fileURLWithPath: directory.file("manifest.json")))
        return (directory, try JSONDecoder().decode(X5CManifest.self, from: data))
    }

    /// A peer script that exited with a failure.
    public struct PeerFailed: Error, CustomStringConvertible {
        /// What failed, with the script's stderr.
        public let description: String
        /// A failure described by `description`.
        public init(description: String) { self.description = description }
    }

    /// The scenarios x5c_chains.py writes.
    public struct X5CManifest: Codable, Sendable {
        /// The verification time (UNIX seconds) every scenario is built around.
        public var now: Double
        /// The scenarios, in order.
        public var cases: [X5CCase]
    }

    /// One x5c scenario: a trusted root file, a token, and the outcome.
    public struct X5CCase: Codable, Sendable {
        /// The scenario's name (e.g. `leaf-expired`).
        public var name: String
        /// The PEM file of the root to trust.
        public var root: String
        /// The compact JWS with its `x5c` header.
        public var token: String
        /// `"ok"`, or text the refusal's reason must contain.
        public var expect: String
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
