import Foundation

/// What a finished ``TokenKitCLI`` run (or any ``ChildProcess``) left behind: the exit status,
/// stdout as bytes (with text and line views), stderr as text, and the time it took.
public struct CLIResult: Sendable {
    /// The exit status, or 128 + the signal's number when a signal ended the child.
    public let status: Int32
    /// Everything written to stdout, byte for byte.
    public let stdout: [UInt8]
    /// Everything written to stderr, decoded as UTF-8 (invalid bytes become U+FFFD).
    public let stderr: String
    /// From the spawn to the exit.
    public let elapsed: Duration

    /// The result of a finished ``ChildProcess``.
    public init(_ outcome: ChildProcess.Outcome) {
        (status, stdout, stderr, elapsed) = (outcome.status, outcome.stdout, outcome.stderrText, outcome.elapsed)
    }

    /// stdout decoded as UTF-8 (invalid bytes become U+FFFD).
    public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }

    /// stdout's lines: split at `\n`, the text after the last `\n` dropped (empty when stdout
    /// ends with a newline, an unterminated last line otherwise); empty lines inside are kept.
    public var lines: [String] {
        stdoutText.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    /// stderr's non-empty lines.
    public var stderrLines: [String] {
        stderr.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    }
}
