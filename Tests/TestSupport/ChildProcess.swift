import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The one way tests run another program (the `tokenkit` CLI, the stress and helper
/// executables, `psql`, `dbus-daemon`, shell scripts): argv, environment, working directory,
/// stdin bytes, stdout and stderr captured as bytes, the exit status, a timeout that kills the
/// child's whole process group, and — for long-running children — reading stdout as it comes.
///
/// Built on `posix_spawn` and a blocking `waitpid` on the child's own pid, on threads of their
/// own: Foundation's `Process.waitUntilExit()` polls a run loop for a `SIGCHLD` it can miss
/// when many tests spawn children at once (seen here: the child a zombie, the test spinning
/// for 20 minutes), and blocking reads on Dispatch's global queues can starve the threads
/// Swift concurrency (and so the tests' own servers) run on. Every child gets a process group
/// of its own (so a timeout also kills what it started), default signal dispositions and an
/// empty signal mask (as from a shell), and only the descriptors given here (the pipes are
/// close-on-exec, so a concurrently spawned daemon cannot hold them open).
public struct ChildProcess: Sendable {
    /// Where the child's standard input comes from.
    public enum Input: Sendable {
        /// `/dev/null` (immediate end of file).
        case null
        /// This test process's own standard input.
        case inherit
        /// A pipe fed these bytes, then closed.
        case bytes([UInt8])
    }

    /// Where one of the child's output streams goes.
    public enum Output: Sendable {
        /// A pipe read to the end into ``Outcome``.
        case capture
        /// `/dev/null`.
        case discard
        /// This test process's own stream.
        case inherit
    }

    /// The executable's path (no `PATH` search: use `/usr/bin/env` for that).
    public var path: String
    /// The arguments after argv[0] (which is `path`).
    public var arguments: [String]
    /// Exactly the child's environment; `nil` passes this process's environment on.
    public var environment: [String: String]?
    /// The child's working directory; `nil` keeps this process's.
    public var directory: String?
    /// Standard input.
    public var stdin: Input
    /// Standard output.
    public var stdout: Output
    /// Standard error.
    public var stderr: Output

    /// A child to run as `path arguments…`; by default stdin is `/dev/null` and both outputs
    /// are captured.
    public init(
        _ path: String, _ arguments: [String] = [], environment: [String: String]? = nil, directory: String? = nil,
        stdin: Input = .null, stdout: Output = .capture, stderr: Output = .capture
    ) {
        (self.path, self.arguments, self.environment, self.directory) = (path, arguments, environment, directory)
        (self.stdin, self.stdout, self.stderr) = (stdin, stdout, stderr)
    }

    /// This process's environment with `extra` added (replacing variables of the same name).
    public static func inheritedEnvironment(adding extra: [String: String] = [:]) -> [String: String] {
        ProcessInfo.processInfo.environment.merging(extra) { _, new in new }
    }

    /// What a finished child left behind.
    public struct Outcome: Sendable {
        /// The exit status, or 128 + the signal's number when a signal ended it (as a shell says).
        public let status: Int32
        /// The signal that ended the child, if one did.
        public let signal: Int32?
        /// Everything written to stdout (empty unless captured).
        public let stdout: [UInt8]
        /// Everything written to stderr (empty unless captured).
        public let stderr: [UInt8]
        /// From the spawn to the exit.
        public let elapsed: Duration
        /// stdout as UTF-8 text.
        public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
        /// stderr as UTF-8 text.
        public var stderrText: String { String(decoding: stderr, as: UTF8.self) }
    }

    /// The child was still running when the timeout expired; its process group was killed.
    public struct TimedOut: Error, CustomStringConvertible {
        /// The command line (executable and first argument).
        public let command: String
        /// The timeout.
        public let after: Duration
        /// What it had written to stdout until then.
        public let stdout: [UInt8]
        /// What it had written to stderr until then.
        public let stderr: [UInt8]
        /// The command and the timeout (never the output, which may hold secrets).
        public var description: String { "\(command) did not finish within \(after); its process group was killed" }
    }

    /// The child could not be started.
    public struct SpawnFailed: Error, CustomStringConvertible {
        /// The executable.
        public let path: String
        /// What failed, with its errno.
        public let reason: String
        /// The executable and the reason.
        public var description: String { "cannot run \(path): \(reason)" }
    }

    /// Runs the child to completion on the calling thread; with `timeout`, kills its process
    /// group after that long and throws ``TimedOut``.
    public func runBlocking(timeout: Duration? = nil) throws -> Outcome {
        try start().wait(timeout: timeout)
    }

    /// Runs the child to completion, waiting on a thread of its own (never on Swift
    /// concurrency's pool); with `timeout`, kills its process group after that long and
    /// throws ``TimedOut``.
    public func run(timeout: Duration? = nil) async throws -> Outcome {
        try await offPool { try runBlocking(timeout: timeout) }
    }

    /// Starts the child and returns at once (for children that run while the test talks to
    /// them); ``Running/wait(timeout:)`` collects it.
    public func start() throws -> Running {
        try Running(spawning: self)
    }
}

/// Runs blocking test plumbing on a thread of its own, so that it never occupies Swift
/// concurrency's small cooperative pool (stalling other tests running in parallel and
/// distorting their timing assertions).
public func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}

