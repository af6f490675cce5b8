import ArgumentParser
import Foundation
import TokenKit

/// A failure the CLI reports as one `error:` line on stderr and a contract exit code.
struct CLIFailure: Error {
    /// The process exit code (see ``ExitStatus``).
    let exitCode: Int32
    /// The reason; must not contain secrets.
    let message: String

    /// Exit 1: the token (or audited input) was rejected.
    static func rejected(_ message: String) -> CLIFailure { CLIFailure(exitCode: ExitStatus.rejected, message: message) }
    /// Exit 2: a file, key or secret could not be read or used.
    static func io(_ message: String) -> CLIFailure { CLIFailure(exitCode: ExitStatus.ioOrKey, message: message) }
}

/// The CLI's exit codes (a contract other tools script against).
enum ExitStatus {
    /// Success.
    static let ok: Int32 = 0
    /// Token rejected; audit found a problem; entry not found.
    static let rejected: Int32 = 1
    /// I/O or key error.
    static let ioOrKey: Int32 = 2
    /// Usage error (argument-parser's `ValidationError` also exits with it).
    static let usage: Int32 = 64
}

/// Runs a command body, turning a ``CLIFailure`` into its `error:` line and exit code.
func reportingFailures(_ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch let failure as CLIFailure {
        StandardStreams.writeError("error: \(StandardStreams.oneLine(failure.message))")
        throw ExitCode(failure.exitCode)
    }
}

/// Unbuffered writes to stdout and stderr.
enum StandardStreams {
    /// Writes bytes to stdout exactly as given.
    static func writeOutput(_ bytes: some Collection<UInt8>) {
        FileHandle.standardOutput.write(Data(bytes))
    }

    /// Writes a line (adding `\n`) to stdout.
    static func printOutput(_ line: String) { writeOutput(Array((line + "\n").utf8)) }

    /// Writes a line (adding `\n`) to stderr.
    static func writeError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// The message with control characters (including newlines) and bidirectional
    /// formatting characters replaced by spaces (TokenKit's one cleaner, ``UntrustedText``),
    /// so that it stays one line and shows what it says.
    static func oneLine(_ message: String) -> String {
        UntrustedText.sanitized(message, replacement: " ")
    }
}
