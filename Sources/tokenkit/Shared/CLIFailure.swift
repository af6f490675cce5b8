import ArgumentParser

/// The one error type of the `tokenkit` commands: a failure reported as one `error:` line on
/// stderr and an exit status.
///
/// A failure carries a ``Code`` (what went wrong, from the CLI user's point of view) and a
/// message; the exit status is never chosen at the throw site but looked up in the one table,
/// ``ExitStatus/status(for:)``. Library errors are mapped in one place
/// (`CLIFailure+Libraries.swift`). Messages come from the CLI or from the libraries, which
/// never put tokens or secrets in them; ``StandardStreams/writeError(_:)`` cleans them to one
/// line when printed.
struct CLIFailure: Error {
    /// What kind of failure this is; decides the exit status.
    struct Code: Hashable, Sendable, CustomStringConvertible {
        /// A name for diagnostics (not printed to users).
        let description: String
        private init(_ name: String) { description = name }

        /// The token, the sign-in response or the audited input was rejected (exit 1).
        static let rejected = Code("rejected")
        /// The store holds no such entry, or one of another kind (exit 1).
        static let notFound = Code("not-found")
        /// A file, key, secret, store, network or server could not be read or used (exit 2).
        static let io = Code("io")
        /// The arguments cannot be used together or hold an unusable value (exit 64).
        static let usage = Code("usage")
    }

    /// What went wrong.
    let code: Code
    /// The reason; must not contain secrets.
    let message: String

    /// A failure of kind `code`.
    init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The process exit status, from ``ExitStatus/status(for:)``.
    var exitCode: Int32 { ExitStatus.status(for: code) }

    /// Exit 1: the token (or audited input) was rejected.
    static func rejected(_ message: String) -> CLIFailure { CLIFailure(.rejected, message) }
    /// Exit 1: no such store entry.
    static func notFound(_ message: String) -> CLIFailure { CLIFailure(.notFound, message) }
    /// Exit 2: a file, key, secret or store could not be read or used.
    static func io(_ message: String) -> CLIFailure { CLIFailure(.io, message) }
    /// Exit 64: unusable arguments.
    static func usage(_ message: String) -> CLIFailure { CLIFailure(.usage, message) }

    /// A failure for a caller that holds only an exit status (the audit command re-throws
    /// store failures this way); the code is the table's first code with that status.
    init(exitCode: Int32, message: String) {
        self.init(ExitStatus.code(for: exitCode), message)
    }
}

/// The CLI's exit statuses (a contract other tools script against), and the one table that
/// maps a ``CLIFailure/Code`` to its status.
enum ExitStatus {
    /// Success.
    static let ok: Int32 = 0
    /// Token rejected; audit found a problem; entry not found.
    static let rejected: Int32 = 1
    /// I/O or key error.
    static let ioOrKey: Int32 = 2
    /// Usage error (argument-parser's `ValidationError` also exits with it).
    static let usage: Int32 = 64

    /// The table: every failure code and its exit status.
    static let table: [(code: CLIFailure.Code, status: Int32)] = [
        (.rejected, rejected),
        (.notFound, rejected),
        (.io, ioOrKey),
        (.usage, usage),
    ]

    /// The exit status for `code` (2 for a code missing from the table, which a test rules out).
    static func status(for code: CLIFailure.Code) -> Int32 {
        table.first { $0.code == code }?.status ?? ioOrKey
    }

    /// The first code in the table with `status` (``CLIFailure/Code/io`` if none has it).
    static func code(for status: Int32) -> CLIFailure.Code {
        table.first { $0.status == status }?.code ?? .io
    }
}

/// Runs a command body, turning a ``CLIFailure`` into its `error:` line and exit status.
/// Other errors propagate unchanged (argument-parser reports them).
func reportingFailures(_ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch let failure as CLIFailure {
        try exit(with: failure)
    }
}

/// Runs a command body, turning *every* error into one `error:` line and an exit status:
/// a ``CLIFailure`` as it is, library errors through ``CLIFailure/init(_:signIn:)``, an
/// `ExitCode` passed on unchanged.
func reportingAllFailures(signIn: Bool = false, _ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch let exitCode as ExitCode {
        throw exitCode
    } catch {
        try exit(with: CLIFailure(error, signIn: signIn))
    }
}

/// Prints `error: MESSAGE` (one line) on stderr and exits with the failure's status.
private func exit(with failure: CLIFailure) throws -> Never {
    StandardStreams.writeError("error: \(failure.message)")
    throw ExitCode(failure.exitCode)
}
