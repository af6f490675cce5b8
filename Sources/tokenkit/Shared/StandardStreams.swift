import Foundation
import TokenKit

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
