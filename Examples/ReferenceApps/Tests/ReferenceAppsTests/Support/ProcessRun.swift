import Foundation
import Testing

/// What a client process printed and how it exited.
struct RunResult: Sendable, CustomStringConvertible {
    let status: Int32
    let stdout: String
    let stderr: String

    var description: String { "exit \(status)\nstdout: \(stdout)\nstderr: \(stderr)" }
}

/// Runs a built client binary as a user would: arguments, stdin, environment.
enum ClientProcess {
    /// Runs `binary ARGS` with `stdin` and exactly `environment` (plus PATH); fails the
    /// run after `timeout` seconds (the process is killed).
    static func run(
        _ binary: String, _ arguments: [String], stdin: String = "", environment: [String: String] = [:],
        timeout: Double = 60
    ) async throws -> RunResult {
        let path = try Binaries.path(binary)
        return try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try runBlocking(path, arguments, stdin: stdin, environment: environment, timeout: timeout) })
            }
        }
    }

    private static func runBlocking(_ path: String, _ arguments: [String], stdin: String, environment: [String: String], timeout: Double) throws -> RunResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        var env = environment
        env["PATH"] = env["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        env["HOME"] = env["HOME"] ?? NSTemporaryDirectory()
        process.environment = env
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        signal(SIGPIPE, SIG_IGN)
        try process.run()
        let writer = input.fileHandleForWriting
        let payload = Array(stdin.utf8)
        DispatchQueue.global().async { PipeIO.writeAllAndClose(writer, payload) }
        let box = DataBox()
        let readers = DispatchGroup()
        let errorHandle = errors.fileHandleForReading
        DispatchQueue.global().async(group: readers) { box.set(PipeIO.readAll(errorHandle)) }
        let killer = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: killer)
        let out = PipeIO.readAll(output.fileHandleForReading)
        readers.wait()
        process.waitUntilExit()
        killer.cancel()
        return RunResult(status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
                         stderr: String(decoding: box.get(), as: UTF8.self))
    }
}

/// A lock-protected slot for a reader thread's result.
final class DataBox: @unchecked Sendable {
    // @unchecked Sendable: every access goes through `lock`.
    private let lock = NSLock()
    private var data: Data?

    func set(_ value: Data) { lock.withLock { data = value } }
    func get() -> Data { lock.withLock { data ?? Data() } }
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
