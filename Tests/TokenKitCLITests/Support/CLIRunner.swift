import Foundation
import TokenKitTestSupport

/// Runs the built `tokenkit` binary as a user would and captures what it did.
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

    /// Runs `tokenkit args…` with `stdin`, waiting at most `timeout` seconds.
    static func run(_ args: [String], stdin: [UInt8] = [], environment: [String: String]? = nil,
                    directory: String? = nil, timeout: Double = 60) throws -> CLIResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try binary())
        process.arguments = args
        if let environment { process.environment = environment }
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let input = Pipe(), output = Pipe(), error = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let collected = CollectedOutput()
        let group = DispatchGroup()
        // Dedicated threads, not DispatchQueue.global(): on Linux the Swift concurrency pool
        // is built on Dispatch, and blocking reads there can starve concurrently running tests.
        for (pipe, isOut) in [(output, true), (error, false)] {
            group.enter()
            let reader = Thread {
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                collected.set(data, isOut: isOut)
                group.leave()
            }
            reader.start()
        }
        if !stdin.isEmpty { try? input.fileHandleForWriting.write(contentsOf: Data(stdin)) }
        try? input.fileHandleForWriting.close()
        if group.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            throw CLIRunnerError.timedOut(args.first ?? "")
        }
        process.waitUntilExit()
        let (out, err) = collected.get()
        return CLIResult(status: process.terminationStatus, stdout: Array(out), stderr: String(decoding: err, as: UTF8.self))
    }

    static func run(_ args: [String], stdinText: String) throws -> CLIResult {
        try run(args, stdin: Array(stdinText.utf8))
    }
}

enum CLIRunnerError: Error { case timedOut(String) }

private final class CollectedOutput: @unchecked Sendable {
    private let lock = NSLock()
    private var out = Data(), err = Data()
    func set(_ data: Data, isOut: Bool) { lock.withLock { if isOut { out = data } else { err = data } } }
    func get() -> (Data, Data) { lock.withLock { (out, err) } }
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
    func write(_ name: String, _ text: String) throws -> String {
        let p = file(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: p))
        return p
    }
    func write(_ name: String, bytes: [UInt8]) throws -> String {
        let p = file(name)
        try Data(bytes).write(to: URL(fileURLWithPath: p))
        return p
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
}
