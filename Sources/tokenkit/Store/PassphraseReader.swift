import Foundation
import TokenKitStore
#if canImport(Glibc)
import Glibc
#endif

/// Finds the encrypted file's passphrase: `--passphrase-file` (first line), else the
/// `TOKENKIT_PASSPHRASE` environment variable, else a no-echo prompt on the controlling
/// terminal. Never an empty passphrase, never from argv, never from a file other users may
/// read (``SecretFileReading``).
enum PassphraseReader {
    /// The environment variable holding the passphrase.
    static let environmentVariable = "TOKENKIT_PASSPHRASE"
    /// The largest passphrase file read (only its first line is used).
    static let maximumFileBytes = 64 * 1024

    static func key(passphraseFile: String?, environment: [String: String]) throws -> FileStoreKey {
        if let passphraseFile {
            return try fromFile(passphraseFile)
        }
        if let value = environment[environmentVariable] {
            guard !value.isEmpty else { throw CLIFailure.io("\(environmentVariable) is set but empty; an empty passphrase is not allowed") }
            return try wrap { () throws(TokenStoreError) in try FileStoreKey.passphrase(value) }
        }
        if let typed = try promptOnTerminal() {
            return try wrap { () throws(TokenStoreError) in try FileStoreKey.passphrase(typed) }
        }
        throw CLIFailure.io(
            "the encrypted file needs a passphrase: pass --passphrase-file PATH, set \(environmentVariable), or run on a terminal to be asked")
    }

    private static func fromFile(_ path: String) throws -> FileStoreKey {
        var bytes = try SecretFileReading.read(path, what: "passphrase file", limit: maximumFileBytes)
        defer { for i in bytes.indices { bytes[i] = 0 } }
        var line = Array(bytes.prefix { $0 != UInt8(ascii: "\n") })
        defer { for i in line.indices { line[i] = 0 } }
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        guard !line.isEmpty else { throw CLIFailure.io("the passphrase file \(path) has an empty first line") }
        return try wrap { () throws(TokenStoreError) in try FileStoreKey.passphrase(line) }
    }

    /// Reads a line from /dev/tty with echo off; `nil` when there is no terminal.
    private static func promptOnTerminal() throws -> [UInt8]? {
        let fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        guard isatty(fd) == 1 else { return nil }
        var saved = termios()
        guard tcgetattr(fd, &saved) == 0 else { return nil }
        var silent = saved
        silent.c_lflag &= ~tcflag_t(ECHO)
        let prompt = Array("Passphrase for the TokenKit credential file: ".utf8)
        _ = prompt.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard tcsetattr(fd, TCSAFLUSH, &silent) == 0 else { return nil }
        defer {
            _ = tcsetattr(fd, TCSAFLUSH, &saved)
            _ = write(fd, "\n", 1)
        }
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while read(fd, &byte, 1) == 1, byte != UInt8(ascii: "\n"), line.count < 4096 {
            line.append(byte)
        }
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        guard !line.isEmpty else { throw CLIFailure.io("an empty passphrase is not allowed") }
        return line
    }

    private static func wrap(_ body: () throws(TokenStoreError) -> FileStoreKey) throws -> FileStoreKey {
        do { return try body() } catch { throw CLIFailure.io(error.message) }
    }
}
