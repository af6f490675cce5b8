import Foundation

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
        if name == "tokenkit", let chosen = ProcessInfo.processInfo.environment["TOKENKIT_CLI"], !chosen.isEmpty {
            guard FileManager.default.isExecutableFile(atPath: chosen) else {
                throw DeadlineExceeded(what: "locating tokenkit (TOKENKIT_CLI=\(chosen) is not an executable file)")
            }
            return CLIProcess(executable: URL(fileURLWithPath: chosen))
        }
        var candidates: [URL] = []
        let argv0 = URL(fileURLWithPath: CommandLine.arguments.first ?? "")
        candidates.append(argv0.deletingLastPathComponent())
        if let main = Bundle.main.executableURL { candidates.append(main.deletingLastPathComponent()) }
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent())
        for directory in candidates {
            var current = directory
            // The xctest bundle may be a directory on some platforms: walk up a few levels.
            for _ in 0..<4 {
                let binary = current.appendingPathComponent(name)
                if FileManager.default.isExecutableFile(atPath: binary.path) { return CLIProcess(executable: binary) }
                current = current.deletingLastPathComponent()
            }
        }
        throw DeadlineExceeded(what: "locating \(name) (looked next to \(candidates.map(\.path)))")
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
