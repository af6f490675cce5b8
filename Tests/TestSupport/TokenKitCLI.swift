import Foundation

/// The tests' one runner of the built `tokenkit` binary (and, by name, of the other built
/// executables such as `tokenkit-refresh-stress`), on top of ``ChildProcess``.
///
/// Every run is bounded: `timeout` defaults to 60 seconds and cannot be switched off; when it
/// expires the child's whole process group is killed and ``ChildProcess/TimedOut`` is thrown.
/// Every run states its environment (``Environment`` has no default). It does not search
/// `PATH`, retry, or interpret the output: ``CLIResult`` holds what the child did.
public struct TokenKitCLI: Sendable {
    /// The executable this runner starts.
    public let path: String

    /// A runner of the built executable `binary` (``BuiltBinary/path(named:)``: an override
    /// variable such as `TOKENKIT_CLI`, else the one next to the test bundle); throws
    /// ``BuiltBinary/Missing`` (saying where it looked) when there is none.
    public init(binary: String = "tokenkit") throws {
        path = try BuiltBinary.path(named: binary)
    }

    /// A runner of the executable at `path` (for this module's own tests of the runner).
    init(path: String) {
        self.path = path
    }

    /// Runs `[wrapper…] path arguments…` with `stdin` (through a pipe, then end of file) and
    /// `environment`, in `directory` (`nil`: this process's), and waits for it off Swift
    /// concurrency's pool.
    ///
    /// - `wrapper`: an argv prefix that runs the binary (e.g. `["/usr/bin/setsid", "--wait"]`);
    ///   it gets the binary's path as its next argument.
    /// - `umask`: the binary runs under that umask (octal text such as `"0277"`), set in a
    ///   `/bin/sh` that then execs it: the test process's own umask is shared by every test
    ///   running in parallel, so it is never changed here.
    /// - `asUser`: the binary runs as that uid (and the gid of the same number) with no
    ///   supplementary groups, through `setpriv`; only root may switch users.
    /// - `timeout`: the bound; after it the process group is killed and
    ///   ``ChildProcess/TimedOut`` thrown.
    ///
    /// Throws ``ChildProcess/SpawnFailed`` when the first program cannot be started.
    public func run(
        _ arguments: [String], stdin: [UInt8] = [], environment: Environment, directory: String? = nil,
        wrapper: [String] = [], umask: String? = nil, asUser uid: UInt32? = nil, timeout: Duration = .seconds(60)
    ) async throws -> CLIResult {
        let child = command(arguments, stdin: stdin, environment: environment, directory: directory,
                            wrapper: wrapper, umask: umask, uid: uid)
        return CLIResult(try await child.run(timeout: timeout))
    }

    /// ``run(_:stdin:environment:directory:wrapper:umask:asUser:timeout:)`` with `stdin` given
    /// as text (fed as its UTF-8 bytes).
    public func run(
        _ arguments: [String], stdin: String, environment: Environment, directory: String? = nil,
        wrapper: [String] = [], umask: String? = nil, asUser uid: UInt32? = nil, timeout: Duration = .seconds(60)
    ) async throws -> CLIResult {
        try await run(arguments, stdin: Array(stdin.utf8), environment: environment, directory: directory,
                      wrapper: wrapper, umask: umask, asUser: uid, timeout: timeout)
    }

    /// Runs like ``run(_:stdin:environment:directory:wrapper:umask:asUser:timeout:)`` (no
    /// wrapper, umask or user switch) and also returns the binary's peak resident memory in
    /// bytes, measured by ``PeakRSS/run(_:timeout:)`` (which needs `python3`).
    public func runMeasuringPeakRSS(
        _ arguments: [String], stdin: [UInt8] = [], environment: Environment, directory: String? = nil,
        timeout: Duration = .seconds(60)
    ) async throws -> (result: CLIResult, peakBytes: Int) {
        let child = command(arguments, stdin: stdin, environment: environment, directory: directory, wrapper: [], umask: nil, uid: nil)
        let (outcome, peak) = try await PeakRSS.run(child, timeout: timeout)
        return (CLIResult(outcome), peak)
    }

    /// The ``ChildProcess`` for one run: the argv with its wrappers, innermost first (umask,
    /// then user switch, then `wrapper`).
    private func command(
        _ arguments: [String], stdin: [UInt8], environment: Environment, directory: String?,
        wrapper: [String], umask: String?, uid: UInt32?
    ) -> ChildProcess {
        var argv = [path]
        if let umask { argv = ["/bin/sh", "-c", "umask \(umask) && exec \"$0\" \"$@\""] + argv }
        if let uid { argv = ["/usr/bin/setpriv", "--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", "--"] + argv }
        argv = wrapper + argv
        return ChildProcess(argv[0], Array(argv.dropFirst()) + arguments, environment: environment.variables,
                            directory: directory, stdin: .bytes(stdin))
    }
}
