import Foundation
import TokenKitTestSupport

/// Runs the built `tokenkit` binary as a separate process.
struct CLIProcess: Sendable {
    /// What a finished process left behind.
    struct Outcome: Sendable {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// Where `tokenkit` was found.
    let executable: URL

    /// Finds `tokenkit` next to the test bundle (`.build/<triple>/debug/`), or throws naming
    /// where it looked: build it with `swift build --build-tests` (which builds every product).
    /// Other binaries built with the tests (e.g. `tokenkit-refresh-stress`) are found the same way.
    /// `TOKENKIT_CLI`, when set, names the `tokenkit` binary to run instead (scripts/test runs
    /// the hostile-input suites again against the release build that way).
    static func locate(_ name: String = "tokenkit") throws -> CLIProcess {
        do {
            return CLIProcess(executable: URL(fileURLWithPath: try BuiltBinary.path(named: name)))
        } catch {
            throw DeadlineExceeded(what: "locating \(name) (\(error))")
        }
    }

    /// Runs the binary with `arguments` with `stdin`, bounded by `seconds` (killed after that).
    /// With `umask`, the binary runs under that umask (set in a shell that then execs it:
    /// the test process's own umask is shared by every test running in parallel).
    func run(
        _ arguments: [String], stdin: String = "", environment: [String: String], seconds: Double = 60, umask: String? = nil
    ) async throws -> Outcome {
        let process = Process()
        if let umask {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "umask \(umask) && exec \"$0\" \"$@\"", executable.path] + arguments
        } else {
            process.executableURL = executable
            process.arguments = arguments
        }
        process.environment = environment
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        let (exits, exitContinuation) = AsyncStream.makeStream(of: Int32.self)
        process.terminationHandler = { finished in
            exitContinuation.yield(finished.terminationStatus)
            exitContinuation.finish()
        }
        try process.run()
        try input.fileHandleForWriting.write(contentsOf: Data(stdin.utf8))
        try input.fileHandleForWriting.close()
        // Read both pipes to the end on dedicated threads: blocking reads on Dispatch's global
        // queues can starve the worker threads that Swift concurrency (and so the test's own
        // HTTP server) runs on, so a full pipe cannot stall the child nor the server.
        async let out = Self.readToEnd(output.fileHandleForReading)
        async let err = Self.readToEnd(errors.fileHandleForReading)
        let status: Int32
        do {
            status = try await withDeadline("tokenkit \(arguments.first ?? "")", seconds: seconds) {
                var iterator = exits.makeAsyncIterator()
                return await iterator.next() ?? -1
            }
        } catch {
            process.terminate()
            throw error
        }
        return Outcome(status: status, stdout: String(decoding: await out, as: UTF8.self), stderr: String(decoding: await err, as: UTF8.self))
    }

    /// Everything `handle` yields until end of file, read on a thread of its own.
    private static func readToEnd(_ handle: FileHandle) async -> Data {
        await withCheckedContinuation { continuation in
            let reader = Thread { continuation.resume(returning: handle.readDataToEndOfFile()) }
            reader.start()
        }
    }
}
