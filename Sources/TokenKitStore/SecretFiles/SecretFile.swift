import Foundation

/// Reads a file that holds a secret (a passphrase, a client secret), refusing one that other
/// users may read, as ssh does for private keys.
///
/// Guarantees:
/// - the file is opened once (`O_RDONLY | O_CLOEXEC`) and checked on that descriptor
///   (`fstat`), so it cannot be swapped between the check and the read;
/// - any group or other permission bit (mode `& 0o077`, e.g. `0644`) is refused with
///   ``TokenStoreError/Code/insecurePermissions`` before a byte is read; the message names
///   the file, its mode and the fix (`chmod 600`);
/// - a missing file, a directory, an unreadable file or one larger than `limit` bytes is
///   refused with ``TokenStoreError/Code/io``, naming the file;
/// - pipes and FIFOs (e.g. `--passphrase-file <(pass show x)`) carry mode `0600` and are
///   accepted;
/// - errors never contain the file's contents; a refused over-long read is wiped.
///
/// Does not: check the directories above the file, or the file's owner.
public enum SecretFile {
    /// The file's bytes (at most `limit`). The caller wipes them when done.
    ///
    /// - Parameters:
    ///   - path: the file to read.
    ///   - what: what the file holds, for messages (e.g. `"passphrase file"`).
    ///   - limit: the largest number of bytes accepted.
    /// - Throws: ``TokenStoreError`` with code `insecurePermissions` or `io` (see the type).
    public static func read(_ path: String, what: String, limit: Int) throws(TokenStoreError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let reason = errno == ENOENT ? "no such file" : PrivateFiles.describe(errno)
            throw .io("cannot read the \(what) \(path): \(reason)")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .io("cannot inspect the \(what) \(path): \(PrivateFiles.describe(errno))") }
        guard (info.st_mode & S_IFMT) != S_IFDIR else { throw .io("cannot read the \(what) \(path): it is a directory") }
        let mode = info.st_mode & 0o7777
        guard mode & 0o077 == 0 else {
            throw .insecurePermissions(
                "the \(what) \(path) has mode \(PrivateFiles.octal(mode)): it must not be readable by other users (run: chmod 600 \(path))")
        }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        defer { for index in buffer.indices { buffer[index] = 0 } }
        while true {
            let n = buffer.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                for index in bytes.indices { bytes[index] = 0 }
                throw .io("cannot read the \(what) \(path): \(PrivateFiles.describe(errno))")
            }
            if n == 0 { break }
            guard n <= limit - bytes.count else {
                for index in bytes.indices { bytes[index] = 0 }
                throw .io("the \(what) \(path) is larger than \(limit) bytes")
            }
            bytes.append(contentsOf: buffer[0..<n])
        }
        return bytes
    }
}
