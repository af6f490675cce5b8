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
        try await offPool { try runBlocking(arguments, stdin: stdin, environment: environment, wrapper: wrapper) }
    }

    static func runBlocking(
        _ arguments: [String], stdin: [UInt8], environment: [String: String], wrapper: [String]
    ) throws -> CLIResult {
        let process = Process()
        let binary = try binary()
        if wrapper.isEmpty {
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: wrapper[0])
            process.arguments = Array(wrapper.dropFirst()) + [binary] + arguments
        }
        var env = environment
        env["PATH"] = env["PATH"] ?? "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin"
        process.environment = env
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        let started = ContinuousClock.now
        try process.run()
        let writer = input.fileHandleForWriting
        let payload = stdin
        // SIGPIPE is ignored by the test runner's default disposition only if set; ignore it so a
        // child that exits early cannot kill the tests.
        signal(SIGPIPE, SIG_IGN)
        DispatchQueue.global().async { PipeIO.writeAllAndClose(writer, payload) }
        // Read both pipes fully (concurrently, so a large output cannot deadlock the child).
        let stderrBox = DataBox()
        let readers = DispatchGroup()
        let errorHandle = errors.fileHandleForReading
        DispatchQueue.global().async(group: readers) { stderrBox.set(PipeIO.readAll(errorHandle)) }
        let out = PipeIO.readAll(output.fileHandleForReading)
        readers.wait()
        process.waitUntilExit()
        return CLIResult(
            status: process.terminationStatus, stdout: Array(out), stderr: String(decoding: stderrBox.get(), as: UTF8.self),
            elapsed: ContinuousClock.now - started)
    }
}

/// A lock-protected slot for the stderr reader thread's result.
final class DataBox: @unchecked Sendable {
    // @unchecked Sendable: every access goes through `lock`.
    private let lock = NSLock()
    private var data: Data?

    func set(_ value: Data) { lock.withLock { data = value } }
    func get() -> Data { lock.withLock { data ?? Data() } }
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
    try ServiceGate.require(
        result.status == 0,
        otherwise: "no live Secret Service (\(result.stderr.trimmingCharacters(in: .whitespacesAndNewlines))); run under scripts/with-secret-service",
        requiredBy: "TOKENKIT_REQUIRE_SECRET_SERVICE")
}
