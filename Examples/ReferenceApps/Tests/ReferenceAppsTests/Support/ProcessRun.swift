import Foundation
import Testing
import TokenKitTestSupport

/// What a client process printed and how it exited.
struct RunResult: Sendable, CustomStringConvertible {
    let status: Int32
    let stdout: String
    let stderr: String

    var description: String { "exit \(status)\nstdout: \(stdout)\nstderr: \(stderr)" }
}

/// Runs a built client binary as a user would: arguments, stdin, environment.
enum ClientProcess {
    /// Runs `binary ARGS` with `stdin` and exactly `environment` (plus PATH and HOME), through
    /// the test support's ``ChildProcess``; its process group is killed after `timeout`
    /// seconds and the test fails with ``ChildProcess/TimedOut``.
    static func run(
        _ binary: String, _ arguments: [String], stdin: String = "", environment: [String: String] = [:],
        timeout: Double = 60
    ) async throws -> RunResult {
        var env = environment
        env["PATH"] = env["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        env["HOME"] = env["HOME"] ?? NSTemporaryDirectory()
        let outcome = try await ChildProcess(try BuiltBinary.path(named: binary), arguments, environment: env, stdin: .bytes(Array(stdin.utf8)))
            .run(timeout: .seconds(timeout))
        return RunResult(status: outcome.status, stdout: outcome.stdoutText, stderr: outcome.stderrText)
    }
}

/// Checks the client error contract: exit 1, nothing on stdout, one `error:` line containing `fragment`.
func expectClientError(_ result: RunResult, containing fragment: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(result.status == 1, "\(result)", sourceLocation: sourceLocation)
    #expect(result.stdout.isEmpty, "\(result)", sourceLocation: sourceLocation)
    let lines = result.stderr.split(separator: "\n")
    #expect(lines.count == 1 && lines.first?.hasPrefix("error: ") == true, "\(result)", sourceLocation: sourceLocation)
    #expect(result.stderr.contains(fragment), "\(result)", sourceLocation: sourceLocation)
}

/// A private temporary directory, removed by ``remove()``.
struct TempDirectory: Sendable {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "refapps-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    func file(_ name: String) -> String { path + "/" + name }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}
