import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive `flock(2)` on a lock file, held until the value is released.
///
/// Guarantees: mutual exclusion among every process (and every open of the file within a
/// process) that takes the same lock, released by the kernel even if the holder is killed;
/// the file is 0600 whatever the umask; waiting ends with ``TokenStoreError/Code/timeout``
/// after `timeout`. Does not: protect against writers that ignore the lock, or work reliably
/// on network file systems where `flock` is emulated or unsupported.
package final class FileLock {
    private let fd: Int32

    /// How long a store operation waits for another process's lock by default: far longer
    /// than any read-modify-write takes (the slowest accepted scrypt work included).
    package static let defaultTimeout: Duration = .seconds(60)

    /// Opens (creating, mode 0600) `path` and waits until the exclusive lock is held, or
    /// throws ``TokenStoreError/Code/timeout`` after `timeout` (0 to 1 day). Blocks the calling
    /// thread (callers run it on their own queue).
    package init(path: String, timeout: Duration = FileLock.defaultTimeout) throws(TokenStoreError) {
        let fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            if errno == ELOOP { throw .insecurePermissions("the lock file \(path) is a symbolic link; refusing to follow it") }
            throw .io("cannot open the lock file \(path): \(PrivateFiles.describe(errno))")
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            close(fd)
            throw .io("cannot inspect the lock file \(path): \(PrivateFiles.describe(errno))")
        }
        // A lock file created under a strict umask (e.g. 0277 gives 0400) would break every
        // later open for writing: set the promised 0600 on our own file before checking it.
        if (info.st_mode & S_IFMT) == S_IFREG, info.st_uid == geteuid(), info.st_mode & 0o777 != 0o600 {
            if fchmod(fd, 0o600) == 0 { info.st_mode = (info.st_mode & ~0o7777) | 0o600 }
        }
        do {
            try PrivateFiles.checkPrivateFile(info, path: path)
        } catch {
            close(fd)
            throw error
        }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: min(timeout.clampedToZero, .seconds(86_400)))
        var pause = 0.002
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            guard code == EWOULDBLOCK || code == EAGAIN || code == EINTR else {
                close(fd)
                throw .io("cannot lock \(path): \(PrivateFiles.describe(code))")
            }
            guard clock.now < deadline else {
                close(fd)
                throw .init(code: .timeout, message: "timed out after \(SecondsText.format(timeout)) s waiting for the lock \(path): another process holds it")
            }
            usleep(UInt32(pause * 1_000_000))
            pause = min(pause * 2, 0.05)
        }
        self.fd = fd
    }

    deinit {
        flock(fd, LOCK_UN)
        close(fd)
    }
}
