import Foundation
import TokenKit

/// Unbuffered writes to stdout and stderr.
///
/// Standard error is written only here, and everything written here is cleaned by TokenKit's
/// one cleaner (``UntrustedText``): control characters, DEL, C1 controls, line separators and
/// bidirectional and invisible format characters become spaces, whatever the message echoes
/// (a claim, a `kid`, a server's answer, a stored account name, an argument). Standard output
/// carries what each command's contract says, exactly: JSON made with the terminal escaping
/// profile, fields cleaned by their command, or bytes the user asked for (`--reveal`, `--jws`).
enum StandardStreams {
    /// Writes bytes to stdout exactly as given.
    static func writeOutput(_ bytes: some Collection<UInt8>) {
        FileHandle.standardOutput.write(Data(bytes))
    }

    /// Writes a line (adding `\n`) to stdout exactly as given.
    static func printOutput(_ line: String) { writeOutput(Array((line + "\n").utf8)) }

    /// Writes `message` to stderr as one cleaned line (adding `\n`): embedded line breaks and
    /// every other unsafe scalar become spaces.
    static func writeError(_ message: String) {
        FileHandle.standardError.write(Data((UntrustedText.sanitized(message, replacement: " ") + "\n").utf8))
    }

    /// Writes several lines to stderr (usage text, argument-parser's messages), each cleaned
    /// as ``writeError(_:)`` cleans one; `\n` still separates them.
    static func writeErrorLines(_ text: String) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let cleaned = lines.map { UntrustedText.sanitized(String($0), replacement: " ") }
        FileHandle.standardError.write(Data((cleaned.joined(separator: "\n") + "\n").utf8))
    }
}
