#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A ``RefreshLock`` made of `flock(2)` locks on files in a private directory, shared by
/// every process (and every ``AuthProvider`` in one process) that uses the same directory.
///
/// Guarantees:
/// - The directory is created with mode 0700 (set with `fchmod`, whatever the umask) when
///   missing, and refused unless, opened with `O_NOFOLLOW | O_DIRECTORY` and checked with
///   `fstat`, it is a directory owned by the current user with no group or other access; a
///   directory another user made (squatting `/tmp/tokenkit-<uid>`) is named as such.
/// - Lock files are opened with `O_NOFOLLOW`, mode 0600 (whatever the umask), hold no data; their names are
///   a hash of the credential key (two keys sharing a hash only share a lock, never data).
/// - Waiting polls a non-blocking `flock` with `Task.sleep`, so no cooperative thread is
///   blocked; it gives up with ``TokenStoreError/Code/lock`` after ``timeout``. The kernel drops
///   the lock when the holder exits, even if it crashes.
///
/// It does not coordinate across machines (e.g. a home directory on NFS): use a directory
/// local to this machine, such as ``defaultDirectory(environment:userID:)``.
public struct FileRefreshLock: RefreshLock {
    /// The directory holding the lock files.
    public let directory: String
    /// How long ``acquire(for:)`` waits before giving up.
    public let timeout: Duration

    /// The default wait, 45 s: longer than a holder's refresh may take with the auth module's
    /// default request deadline (30 s) plus store work, so a waiter never gives up while the
    /// holder is still within its own deadline.
    public static let defaultTimeout: Duration = .seconds(45)

    /// Creates a lock in `directory`; nothing is touched on disk until ``acquire(for:)``.
    /// Pick `timeout` longer than the refresher's request deadline (see ``defaultTimeout``).
    public init(directory: String, timeout: Duration = FileRefreshLock.defaultTimeout) {
        self.directory = directory
        self.timeout = timeout
    }

    /// `$XDG_RUNTIME_DIR/tokenkit` when `XDG_RUNTIME_DIR` is an absolute path, else
    /// `/tmp/tokenkit-<uid>`. The library never reads the environment itself: pass it in
    /// (e.g. `ProcessInfo.processInfo.environment`).
    public static func defaultDirectory(environment: [String: String], userID: UInt32 = UInt32(geteuid())) -> String {
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/"), runtime.utf8.count < 3000 {
            return (runtime.hasSuffix("/") ? String(runtime.dropLast()) : runtime) + "/tokenkit"
        }
        return "/tmp/tokenkit-\(userID)"
    }

    /// Takes the lock for `key`, waiting up to ``timeout``.
    public func acquire(for key: CredentialKey) async throws(TokenStoreError) -> RefreshLockLease {
        try Self.prepareDirectory(directory)
        let path = directory + "/refresh-" + Self.fileName(for: key) + ".lock"
        let fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .lock("cannot open a lock file in \(directory): \(Self.errnoText())") }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_uid == geteuid() else {
            close(fd)
            throw .lock("a lock file in \(directory) is not a regular file owned by this user")
        }
        // The lock file holds no data, but 0600 is promised whatever the umask was.
        if info.st_mode & 0o777 != 0o600, fchmod(fd, 0o600) != 0 {
            close(fd)
            throw .lock("cannot set the mode of a lock file in \(directory): \(Self.errnoText())")
        }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        var pause = Duration.milliseconds(2)
        while true {
            if flock(fd, LOCK_EX | LOCK_NB) == 0 {
                return RefreshLockLease {
                    _ = flock(fd, LOCK_UN)
                    close(fd)
                }
            }
            let failure = errno
            guard failure == EWOULDBLOCK || failure == EAGAIN || failure == EINTR else {
                close(fd)
                throw .lock("flock failed: \(String(cString: strerror(failure)))")
            }
            guard clock.now < deadline else {
                close(fd)
                throw .lock("timed out after \(timeout) waiting for another process to finish refreshing")
            }
            do {
                try await Task.sleep(for: pause)
            } catch {
                close(fd)
                throw .cancelled("cancelled while waiting for the refresh lock")
            }
            pause = min(pause * 2, .milliseconds(50))
        }
    }

    /// Creates `path` (mode 0700 whatever the umask) if missing and checks it is private to
    /// this user without following links (``PrivateFiles/preparePrivateDirectory(_:)``).
    static func prepareDirectory(_ path: String) throws(TokenStoreError) {
        do throws(TokenStoreError) {
            try PrivateFiles.preparePrivateDirectory(path)
        } catch {
            throw .lock(error.message)
        }
    }

    /// 32 hex digits identifying `key` (two FNV-1a-64 hashes with different offsets).
    static func fileName(for key: CredentialKey) -> String {
        let bytes = Array(key.service.utf8) + [0] + Array(key.account.utf8)
        func fnv(_ basis: UInt64) -> String {
            var hash = basis
            for byte in bytes {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01B3
            }
            let hex = String(hash, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }
        return fnv(0xCBF2_9CE4_8422_2325) + fnv(0x6C62_272E_07BB_0142)
    }

    static func errnoText() -> String { String(cString: strerror(errno)) }
}
