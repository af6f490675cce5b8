import Foundation

/// Reads the token (or other text) a command operates on: from an argument, or from stdin
/// when the argument is `-` or absent.
enum TokenInput {
    /// Largest stdin input accepted (beyond any token limit, so oversize is reported as such).
    static let maxStdinBytes = 4 * 1024 * 1024

    /// The token text. Whitespace around a token read from stdin is ignored; whitespace
    /// inside a token is refused (exit 1).
    static func token(_ argument: String?) throws -> String {
        var text: String
        if let argument, argument != "-" {
            text = argument
        } else {
            text = try readStdinText(what: "token")
            text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        if text.unicodeScalars.contains(where: { CharacterSet.whitespacesAndNewlines.contains($0) }) {
            throw CLIFailure.rejected("malformed token: whitespace inside the token")
        }
        return text
    }

    /// All of stdin as bytes, bounded by ``maxStdinBytes``.
    static func readStdinBytes(what: String) throws -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw CLIFailure.io("cannot read the \(what) from stdin: \(String(cString: strerror(errno)))")
            }
            if n == 0 { break }
            bytes.append(contentsOf: buffer[0..<n])
            if bytes.count > maxStdinBytes { throw CLIFailure.rejected("the \(what) on stdin is larger than \(maxStdinBytes) bytes") }
        }
        return bytes
    }

    /// All of stdin as UTF-8 text; invalid UTF-8 is refused (exit 1).
    static func readStdinText(what: String) throws -> String {
        let bytes = try readStdinBytes(what: what)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw CLIFailure.rejected("malformed \(what): not valid UTF-8")
        }
        return text
    }
}
