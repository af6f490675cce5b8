import Foundation
import TokenKit

/// Runs the built `tokenkit` binary: `TOKENKIT_BIN`, else next to the test bundle, else
/// `.build/debug/tokenkit` under the package root.
enum CLI {
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
        var lines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }
    }

    static let binary: String = {
        if let path = ProcessInfo.processInfo.environment["TOKENKIT_BIN"], !path.isEmpty { return path }
        let bundleSibling = Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("tokenkit").path
        if FileManager.default.isExecutableFile(atPath: bundleSibling) { return bundleSibling }
        for candidate in [Bundle.main.bundleURL.appendingPathComponent("tokenkit").path] + testBundleCandidates()
        where FileManager.default.isExecutableFile(atPath: candidate) {
            return candidate
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/tokenkit").path
    }()

    private static func testBundleCandidates() -> [String] {
        Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent().appendingPathComponent("tokenkit").path }
    }

    /// Runs `tokenkit` with `arguments`, feeding `stdin`.
    static func run(_ arguments: [String], stdin: String = "", environment: [String: String] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let input = Pipe(), output = Pipe(), error = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let writer = Thread {
            input.fileHandleForWriting.write(Data(stdin.utf8))
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        // Read both pipes fully before waiting, so a large output cannot block the child.
        let errorData = LockedData()
        let errorReader = Thread { errorData.set(error.fileHandleForReading.readDataToEndOfFile()) }
        errorReader.start()
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !errorData.done { usleep(1000) }
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errorData.value, as: UTF8.self))
    }

    /// Writes `text` to a new temporary file and returns its path.
    static func temporaryFile(_ text: String, name: String = "tokens.txt") throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tokenkit-audit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }
}

/// Data handed from a reader thread.
final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    private var finished = false
    func set(_ value: Data) { lock.lock(); data = value; finished = true; lock.unlock() }
    var done: Bool { lock.lock(); defer { lock.unlock() }; return finished }
    var value: Data { lock.lock(); defer { lock.unlock() }; return data }
}

/// Test tokens (unsigned unless noted).
enum Tokens {
    static let now = "1700000000"

    static func make(header: String = #"{"alg":"HS256","typ":"JWT"}"#, payload: String, signature: String = "c2ln") -> String {
        Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(payload.utf8)) + "." + signature
    }

    static func claims(_ members: String, alg: String = "HS256", kid: String? = nil) -> String {
        let kidPart = kid.map { #","kid":"\#($0)""# } ?? ""
        return make(header: #"{"alg":"\#(alg)"\#(kidPart)}"#, payload: "{\(members)}")
    }
}
