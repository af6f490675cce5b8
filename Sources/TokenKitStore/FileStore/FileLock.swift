import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive `flock(2)` on a lock file, held until the value is released.
///
/// Guarantees: mutual exclusion among every process (and every open of the file within a
/// process) that takes the same lock, released by the kernel even if the holder is killed.
/// Does not: protect against writers that ignore the lock, or work reliably on network file
/// systems where `flock` is emulated or unsupported.
package final class FileLock {
    private let fd: Int32

    /// Opens (creating, mode 0600) `path` and blocks until the exclusive lock is held.
    package init(path: String) throws(TokenStoreError) {
        let fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .io("cannot open the lock file \(path): \(PrivateFiles.describe(errno))") }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            close(fd)
            throw .io("cannot inspect the lock file \(path): \(PrivateFiles.describe(errno))")
        }
        do {
            try PrivateFiles.checkPrivateFile(info, path: path)
        } catch {
            close(fd)
            throw error
        }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else {
                let code = errno
                close(fd)
                throw .io("cannot lock \(path): \(PrivateFiles.describe(code))")
            }
        }
        self.fd = fd
    }

    deinit {
        flock(fd, LOCK_UN)
        close(fd)
    }
}
