import Foundation
import Testing
import TokenKitTestSupport

/// Runs the built `tokenkit` binary and captures what it printed and how it exited.
struct CLIResult: Sendable {
    let status: Int32
    let stdout: [UInt8]
    let stderr: String
    let elapsed: Duration

    var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
}

enum CLI {
    /// The `tokenkit` to run (``BuiltBinary/path(named:)``: `TOKENKIT_CLI`, else the build's).
    static func binary() throws -> String {
        try BuiltBinary.path(named: "tokenkit")
    }

    /// The repository's scripts/with-secret-service.
    static var withSecretService: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/with-secret-service").path
    }

    /// Runs `tokenkit ARGS` (or, with `wrapper`, `WRAPPER... tokenkit ARGS`) with `stdin`
    /// and exactly `environment` (plus PATH).
    static func run(
        _ arguments: [String], stdin: [UInt8] = [], environment: [String: String], wrapper: [String] = []
    ) async throws -> CLIResult {
        let binary = try binary()
        let argv = wrapper + [binary] + arguments
        var env = environment
        env["PATH"] = env["PATH"] ?? "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin"
        return CLIResult(try await ChildProcess(argv[0], Array(argv.dropFirst()), environment: env, stdin: .bytes(stdin)).run())
    }
}

extension CLIResult {
    /// What a finished `tokenkit` (or wrapper) left behind.
    init(_ outcome: ChildProcess.Outcome) {
        self.init(status: outcome.status, stdout: outcome.stdout, stderr: outcome.stderrText, elapsed: outcome.elapsed)
    }
}

/// Checks the error contract: exactly one `error: …` line on stderr, nothing on stdout.
func expectOneErrorLine(_ result: CLIResult, status: Int32, containing fragment: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(result.status == status, "exit \(result.status), stderr: \(result.stderr)", sourceLocation: sourceLocation)
    #expect(result.stdout.isEmpty, "stdout: \(result.stdoutText)", sourceLocation: sourceLocation)
    let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count == 2 && lines[1].isEmpty && lines[0].hasPrefix("error: "), "stderr: \(result.stderr)", sourceLocation: sourceLocation)
    #expect(result.stderr.contains(fragment), "stderr: \(result.stderr)", sourceLocation: sourceLocation)
}

/// Skips (or, with TOKENKIT_REQUIRE_SECRET_SERVICE=1, fails) when no Secret Service answers,
/// checked by asking the binary itself to list on the secret-service backend.
func requireLiveSecretService(_ environment: [String: String]) async throws {
    let result = try await CLI.run(["store", "list", "--service", "probe.\(UUID().uuidString)", "--backend", "secret-service"], environment: environment)
    try SecretServiceEnvironment.require(
        available: result.status == 0, reason: result.stderr.trimmingCharacters(in: .whitespacesAndNewlines))
}
