import Foundation
import TokenKitTestSupport

/// Runs the built `tokenkit` binary as a user would and captures what it did. Async: the
/// child is waited for off Swift concurrency's pool (a blocking wait on one of its two
/// threads here starved every other test of the process).
struct CLIResult: Sendable {
    let status: Int32
    let stdout: [UInt8]
    let stderr: String
    var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    var stderrLines: [String] { stderr.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) }
}

enum CLIRunner {
    /// The binary (``BuiltBinary/path(named:)``: `TOKENKIT_CLI`/`TOKENKIT_BIN`, else `tokenkit`
    /// next to the test bundle).
    static func binary() throws -> String { try BuiltBinary.path(named: "tokenkit") }

    /// Runs `tokenkit args…` with `stdin` (through a pipe), `environment` (`nil`: this
    /// process's) and working `directory`; after `timeout` seconds the process group is killed
    /// and ``ChildProcess/TimedOut`` thrown.
    static func run(_ args: [String], stdin: [UInt8] = [], environment: [String: String]? = nil,
                    directory: String? = nil, timeout: Double = 60) async throws -> CLIResult {
        let outcome = try await ChildProcess(try binary(), args, environment: environment, directory: directory, stdin: .bytes(stdin))
            .run(timeout: .seconds(timeout))
        return CLIResult(status: outcome.status, stdout: outcome.stdout, stderr: outcome.stderrText)
    }

    /// Runs `tokenkit args…` as the user `uid` (and its group of the same number) through
    /// `setpriv`, with no supplementary groups: for checks that root would pass by privilege
    /// (reading a mode-0 file). Only root may switch users.
    static func run(_ args: [String], asUser uid: UInt32, timeout: Double = 60) async throws -> CLIResult {
        let outcome = try await ChildProcess("/usr/bin/setpriv", ["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", "--", try binary()] + args)
            .run(timeout: .seconds(timeout))
        return CLIResult(status: outcome.status, stdout: outcome.stdout, stderr: outcome.stderrText)
    }

    static func run(_ args: [String], stdinText: String) async throws -> CLIResult {
        try await run(args, stdin: Array(stdinText.utf8))
    }
}

/// A temporary directory removed when the value is released.
final class TemporaryDirectory: @unchecked Sendable {
    let path: String
    init() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("tokenkit-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        path = base.path
    }
    func file(_ name: String) -> String { path + "/" + name }
    /// Writes `text` to a new file with `mode` (0600 unless given: tokenkit refuses key and
    /// secret files other users may read, whatever the umask made them).
    func write(_ name: String, _ text: String, mode: Int = 0o600) throws -> String {
        try write(name, bytes: Array(text.utf8), mode: mode)
    }
    /// Writes `bytes` to a new file with `mode` (0600 unless given).
    func write(_ name: String, bytes: [UInt8], mode: Int = 0o600) throws -> String {
        let p = file(name)
        try Data(bytes).write(to: URL(fileURLWithPath: p))
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: p)
        return p
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
}
