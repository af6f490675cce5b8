import Foundation
import TokenKitStore

/// Writes a new file atomically with mode 0600, never replacing an existing file: the bytes
/// go to a temporary file in the same directory, are fsynced, and are then hard-linked to
/// the final name (which fails if it exists) before the temporary name is removed. A crash
/// leaves either no file or the complete file (plus, at worst, a stray `.tmp` file).
enum NewFileWriter {
    static func write(_ bytes: some Collection<UInt8>, to path: String, what: String) throws {
        // PathSplit, not NSString: Foundation's path APIs trap on some relative paths.
        let directory = PathSplit.directory(of: path)
        let temporary = directory + "/.\(PathSplit.name(of: path)).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw CLIFailure.io("cannot create \(what) \(path): \(String(cString: strerror(errno)))") }
        var ok = false
        defer {
            if !ok { unlink(temporary) }
        }
        let data = Array(bytes)
        var written = 0
        while written < data.count {
            let n = data[written...].withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                close(fd)
                throw CLIFailure.io("cannot write \(what) \(path): \(reason)")
            }
            written += n
        }
        guard fsync(fd) == 0, close(fd) == 0 else { throw CLIFailure.io("cannot write \(what) \(path): \(String(cString: strerror(errno)))") }
        guard link(temporary, path) == 0 else {
            let reason = errno == EEXIST ? "it already exists (refusing to overwrite)" : String(cString: strerror(errno))
            throw CLIFailure.io("cannot create \(what) \(path): \(reason)")
        }
        unlink(temporary)
        ok = true
        let dirfd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dirfd >= 0 {
            fsync(dirfd)
            close(dirfd)
        }
    }
}
