#if Hummingbird && Postgres
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

    /// Runs the binary with `arguments` with `stdin` and exactly `environment`, bounded by
    /// `seconds` (after that its process group is killed and ``ChildProcess/TimedOut`` thrown).
    /// With `umask`, the binary runs under that umask (set in a shell that then execs it:
    /// the test process's own umask is shared by every test running in parallel).
    func run(
        _ arguments: [String], stdin: String = "", environment: [String: String], seconds: Double = 60, umask: String? = nil
    ) async throws -> Outcome {
        let argv = umask.map { ["/bin/sh", "-c", "umask \($0) && exec \"$0\" \"$@\"", executable.path] } ?? [executable.path]
        let outcome = try await ChildProcess(argv[0], Array(argv.dropFirst()) + arguments, environment: environment, stdin: .bytes(Array(stdin.utf8)))
            .run(timeout: .seconds(seconds))
        return Outcome(status: outcome.status, stdout: outcome.stdoutText, stderr: outcome.stderrText)
    }

    /// Runs the binary like ``run(_:stdin:environment:seconds:umask:)`` and also returns its
    /// peak resident memory in bytes (``PeakRSS``).
    func runMeasuringPeakRSS(
        _ arguments: [String], environment: [String: String], seconds: Double = 60
    ) async throws -> (outcome: Outcome, peakBytes: Int) {
        let (outcome, peak) = try await PeakRSS.run(
            ChildProcess(executable.path, arguments, environment: environment), timeout: .seconds(seconds))
        return (Outcome(status: outcome.status, stdout: outcome.stdoutText, stderr: outcome.stderrText), peak)
    }
}
#endif
