/// Reads the OAuth client secret for `--client-secret-file` (`tokenkit login`, `token`, `logout`).
enum ClientSecretFile {
    /// The largest secret file accepted.
    static let maximumBytes = 4096

    /// The file's text without one trailing newline (`\n` or `\r\n`); `-` reads stdin. Refuses
    /// (exit 2) an unreadable, group/other-accessible, empty, non-UTF-8 or multi-line file,
    /// naming the file but never its contents.
    static func read(_ path: String) throws -> String {
        var bytes = try path == "-"
            ? TokenInput.readStdinBytes(what: "client secret")
            : SecretFileReading.read(path, what: "client secret file", limit: maximumBytes)
        guard bytes.count <= maximumBytes else { throw CLIFailure.io("the client secret is larger than \(maximumBytes) bytes") }
        defer { for index in bytes.indices { bytes[index] = 0 } }
        if bytes.last == UInt8(ascii: "\n") {
            bytes.removeLast()
            if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        }
        guard !bytes.isEmpty else { throw CLIFailure.io("client secret file \(path) is empty") }
        guard let secret = String(validating: bytes, as: UTF8.self) else {
            throw CLIFailure.io("client secret file \(path) is not UTF-8 text")
        }
        guard !secret.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw CLIFailure.io("client secret file \(path) holds more than one line or control characters")
        }
        return secret
    }
}
