import Foundation
import TokenKitStore
#if canImport(Glibc)
import Glibc
#endif

/// Reads secrets (passwords, passphrases) the way the clients promise: from a no-echo
/// prompt on the terminal, or from the first line of stdin when stdin is not a terminal.
/// Never from argv.
public enum SecretInput {
    /// The first line of a secret: typed with echo off when stdin is a terminal, else read
    /// from stdin. Throws when it is empty or stdin ends first.
    public static func read(prompt: String) throws(ClientFailure) -> String {
        let line: [UInt8]?
        if isatty(STDIN_FILENO) == 1 {
            line = promptWithoutEcho(prompt)
        } else {
            line = readLine(from: STDIN_FILENO)
        }
        guard let line, !line.isEmpty else {
            throw ClientFailure("no \(prompt.lowercased()) given (type it at the prompt or pipe it on stdin)")
        }
        guard let text = String(validating: line, as: UTF8.self) else {
            throw ClientFailure("the \(prompt.lowercased()) is not valid UTF-8")
        }
        return text
    }

    /// The largest passphrase file read (only its first line is used).
    public static let maximumFileBytes = 64 * 1024

    /// The first line of the passphrase file at `path`, without its newline. The file goes
    /// through TokenKitStore's ``SecretFile`` check: one other users may read (e.g. mode
    /// 0644) is refused with a message naming the file and its mode.
    public static func firstLine(ofFile path: String) throws(ClientFailure) -> String {
        var bytes: [UInt8]
        do {
            bytes = try SecretFile.read(path, what: "passphrase file", limit: maximumFileBytes)
        } catch {
            throw ClientFailure(error.message)
        }
        defer { for index in bytes.indices { bytes[index] = 0 } }
        var line = Array(bytes.prefix { $0 != UInt8(ascii: "\n") })
        defer { for index in line.indices { line[index] = 0 } }
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        guard !line.isEmpty, let text = String(validating: line, as: UTF8.self) else {
            throw ClientFailure("the first line of the passphrase file \(path) is empty or not UTF-8")
        }
        return text
    }

    private static func readLine(from fd: Int32) -> [UInt8]? {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let n = Glibc.read(fd, &byte, 1)
            if n == 1 {
                if byte == UInt8(ascii: "\n") { break }
                if line.count >= 4096 { break }
                line.append(byte)
            } else if n < 0 && errno == EINTR {
                continue
            } else {
                if line.isEmpty { return nil }
                break
            }
        }
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        return line
    }

    private static func promptWithoutEcho(_ prompt: String) -> [UInt8]? {
        let fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return readLine(from: STDIN_FILENO) }
        defer { close(fd) }
        var saved = termios()
        guard tcgetattr(fd, &saved) == 0 else { return nil }
        var silent = saved
        silent.c_lflag &= ~tcflag_t(ECHO)
        let text = Array("\(prompt): ".utf8)
        _ = text.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard tcsetattr(fd, TCSAFLUSH, &silent) == 0 else { return nil }
        defer {
            _ = tcsetattr(fd, TCSAFLUSH, &saved)
            _ = write(fd, "\n", 1)
        }
        return readLine(from: fd)
    }
}
