import Foundation

/// Reads a file that holds a secret (a passphrase, a client secret), refusing one that other
/// users may read, as ssh does for private keys.
///
/// Guarantees: the file is opened once and checked on that descriptor (`fstat`): any group or
/// other permission bit is refused (exit 2) with a message naming the file, its mode and the
/// fix, before a byte is read; at most `limit` bytes are read (more is refused). Pipes (e.g.
/// `--passphrase-file <(pass show x)`) carry mode 0600 and are accepted. Errors never contain
/// the file's contents. Does not: check the directories above the file.
enum SecretFile {
    /// The file's bytes. The caller wipes them when done.
    static func read(_ path: String, what: String, limit: Int) throws -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let reason = errno == ENOENT ? "no such file" : String(cString: strerror(errno))
            throw CLIFailure.io("cannot read the \(what) \(path): \(reason)")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw CLIFailure.io("cannot inspect the \(what) \(path): \(String(cString: strerror(errno)))") }
        guard (info.st_mode & S_IFMT) != S_IFDIR else { throw CLIFailure.io("cannot read the \(what) \(path): it is a directory") }
        let mode = info.st_mode & 0o7777
        guard mode & 0o077 == 0 else {
            let digits = String(mode, radix: 8)
            let shown = String(repeating: "0", count: max(0, 4 - digits.count)) + digits
            throw CLIFailure.io("the \(what) \(path) has mode \(shown): it must not be readable by other users (run: chmod 600 \(path))")
        }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        defer { for index in buffer.indices { buffer[index] = 0 } }
        while true {
            let n = buffer.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw CLIFailure.io("cannot read the \(what) \(path): \(String(cString: strerror(errno)))")
            }
            if n == 0 { break }
            guard n <= limit - bytes.count else {
                for index in bytes.indices { bytes[index] = 0 }
                throw CLIFailure.io("the \(what) \(path) is larger than \(limit) bytes")
            }
            bytes.append(contentsOf: buffer[0..<n])
        }
        return bytes
    }
}
