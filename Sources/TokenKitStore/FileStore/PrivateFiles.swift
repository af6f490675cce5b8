import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// POSIX file operations for private files: permission checks, bounded reads and atomic
/// replacement. Every failure is a ``TokenStoreError`` naming the path and the cause.
package enum PrivateFiles {
    /// Store files larger than this are refused rather than read into memory.
    static let maximumFileSize = 64 << 20

    /// Checks (and with `create`, makes, mode 0700) the directory holding a store file.
    ///
    /// Refuses a directory owned by another user (other than root) or writable by group or
    /// others without the sticky bit, since anyone who can write there could swap the file;
    /// and a directory reached through a symbolic link owned by another user (other than
    /// root), since its owner can point it elsewhere at any time. Returns `false` when it does
    /// not exist and `create` is false.
    @discardableResult
    package static func checkDirectory(_ directory: String, create: Bool) throws(TokenStoreError) -> Bool {
        var link = stat()
        if lstat(directory, &link) == 0, (link.st_mode & S_IFMT) == S_IFLNK, link.st_uid != geteuid(), link.st_uid != 0 {
            throw .insecurePermissions(
                "\(directory) is a symbolic link owned by another user (uid \(link.st_uid)), who can point it anywhere; refusing to keep credentials there")
        }
        var info = stat()
        if stat(directory, &info) != 0 {
            let code = errno
            guard code == ENOENT else { throw .io("cannot access \(directory): \(describe(code))") }
            guard create else { return false }
            try makeDirectories(directory)
            guard stat(directory, &info) == 0 else { throw .io("cannot access \(directory): \(describe(errno))") }
        }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { throw .io("\(directory) is not a directory") }
        guard info.st_uid == geteuid() || info.st_uid == 0 else {
            throw .insecurePermissions("\(directory) belongs to another user (uid \(info.st_uid)); refusing to keep credentials there")
        }
        let mode = info.st_mode & 0o7777
        if mode & 0o022 != 0 && mode & S_ISVTX == 0 {
            throw .insecurePermissions("\(directory) is writable by other users (mode \(octal(mode))); run: chmod 700 \(directory)")
        }
        return true
    }

    /// Reads a store file, or returns `nil` when it does not exist.
    ///
    /// Refuses symbolic links, non-regular files, files owned by another user, files any
    /// other user may read or write (mode must be 0600 or stricter) and oversized files.
    package static func readIfPresent(_ path: String) throws(TokenStoreError) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        if fd < 0 {
            let code = errno
            if code == ENOENT { return nil }
            if code == ELOOP { throw .insecurePermissions("\(path) is a symbolic link; refusing to follow it") }
            throw .io("cannot open \(path): \(describe(code))")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .io("cannot inspect \(path): \(describe(errno))") }
        try checkPrivateFile(info, path: path)
        guard Int(info.st_size) <= maximumFileSize else {
            throw .corrupted("\(path) is \(info.st_size) bytes, larger than a credential store may be (\(maximumFileSize) bytes)")
        }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var total = 0
        while total < bytes.count {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress.map { $0 + total }, $0.count - total) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .io("cannot read \(path): \(describe(errno))")
            }
            if n == 0 { break }
            total += n
        }
        return Array(bytes[0..<total])
    }

    /// Checks an already-open file's metadata: regular, ours, mode 0600 or stricter.
    static func checkPrivateFile(_ info: stat, path: String) throws(TokenStoreError) {
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw .io("\(path) is not a regular file") }
        guard info.st_uid == geteuid() else {
            throw .insecurePermissions("\(path) belongs to another user (uid \(info.st_uid)); refusing to use it")
        }
        let mode = info.st_mode & 0o7777
        guard mode & 0o077 == 0 else {
            throw .insecurePermissions("\(path) has mode \(octal(mode)), readable or writable by other users; it must be 0600 (run: chmod 600 \(path))")
        }
    }

    /// Replaces `path` with `bytes` atomically: a new 0600 temporary file in the same
    /// directory is written and fsynced, renamed over `path`, and the directory is fsynced.
    /// A crash at any point leaves either the old file or the new one (plus at worst a
    /// stray temporary, removed by ``removeStaleTemporaries(of:)``).
    package static func replaceAtomically(
        _ path: String, with bytes: [UInt8], beforeRename: ((String) -> Void)? = nil
    ) throws(TokenStoreError) {
        let directory = PathSplit.directory(of: path)
        let temporary = try writeTemporary(for: path, bytes)
        var renamed = false
        defer { if !renamed { unlink(temporary) } }
        beforeRename?(temporary)
        guard rename(temporary, path) == 0 else { throw .io("cannot replace \(path): \(describe(errno))") }
        renamed = true
        try syncDirectory(directory)
    }

    /// Creates `path` holding `bytes` (0600, synced) only if nothing is there yet: the bytes go
    /// to a temporary file that is then hard-linked to `path`, so a reader never sees a
    /// partial file and two processes racing to create it agree on one winner. Returns `false`
    /// (writing nothing) when `path` already exists.
    package static func createExclusively(_ path: String, with bytes: [UInt8]) throws(TokenStoreError) -> Bool {
        let temporary = try writeTemporary(for: path, bytes)
        defer { unlink(temporary) }
        if link(temporary, path) != 0 {
            let code = errno
            if code == EEXIST { return false }
            throw .io("cannot create \(path): \(describe(code))")
        }
        try syncDirectory(PathSplit.directory(of: path))
        return true
    }

    /// Writes `bytes` to a new 0600 temporary file beside `path`, synced; returns its path.
    private static func writeTemporary(for path: String, _ bytes: [UInt8]) throws(TokenStoreError) -> String {
        let directory = PathSplit.directory(of: path)
        let temporary = "\(directory)/\(temporaryPrefix(of: path))\(randomSuffix())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .io("cannot create a temporary file in \(directory): \(describe(errno))") }
        var complete = false
        defer { if !complete { unlink(temporary) } }
        defer { close(fd) }
        guard fchmod(fd, 0o600) == 0 else { throw .io("cannot set the mode of \(temporary): \(describe(errno))") }
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress.map { $0 + written }, $0.count - written) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .io("cannot write \(temporary): \(describe(errno))")
            }
            written += n
        }
        guard fsync(fd) == 0 else { throw .io("cannot flush \(temporary) to disk: \(describe(errno))") }
        complete = true
        return temporary
    }

    /// Deletes temporaries left by writers that crashed. Call only while holding the
    /// store's exclusive lock (no live writer can own one then).
    static func removeStaleTemporaries(of path: String) {
        let directory = PathSplit.directory(of: path)
        let prefix = temporaryPrefix(of: path)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where name.hasPrefix(prefix) {
            unlink("\(directory)/\(name)")
        }
    }

    static func syncDirectory(_ directory: String) throws(TokenStoreError) {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw .io("cannot open \(directory) to flush it: \(describe(errno))") }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw .io("cannot flush \(directory) to disk: \(describe(errno))") }
    }

    static func describe(_ code: Int32) -> String { String(cString: strerror(code)) }

    static func octal(_ mode: mode_t) -> String {
        let digits = String(mode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    private static func temporaryPrefix(of path: String) -> String {
        ".\(PathSplit.name(of: path)).tmp-"
    }

    private static func randomSuffix() -> String {
        var generator = SystemRandomNumberGenerator()
        return String(generator.next() as UInt64, radix: 16)
    }

    private static func makeDirectories(_ directory: String) throws(TokenStoreError) {
        let parent = PathSplit.directory(of: directory)
        if parent != directory, parent != "." {
            var info = stat()
            if stat(parent, &info) != 0 {
                guard errno == ENOENT else { throw .io("cannot access \(parent): \(describe(errno))") }
                try makeDirectories(parent)
            }
        }
        if mkdir(directory, 0o700) == 0 {
            try setModeOfNewDirectory(directory)
        } else if errno != EEXIST {
            throw .io("cannot create \(directory): \(describe(errno))")
        }
    }

    /// Sets a directory just created to 0700 whatever the umask (through a descriptor opened
    /// without following links, so a link swapped in meanwhile is not chmod-ed).
    private static func setModeOfNewDirectory(_ directory: String) throws(TokenStoreError) {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { throw .io("cannot open \(directory) to set its mode: \(describe(errno))") }
        defer { close(fd) }
        guard fchmod(fd, 0o700) == 0 else { throw .io("cannot set the mode of \(directory): \(describe(errno))") }
    }

    /// Creates (mode 0700, whatever the umask) or checks a directory that must be private to
    /// this user, such as a lock directory: opened with `O_NOFOLLOW | O_DIRECTORY` and checked
    /// with `fstat`, it must be a directory (not a symbolic link) owned by the effective user,
    /// with no group or other permission. Its parent must exist. One made by another user (for
    /// example `/tmp/tokenkit-<uid>` created first by someone else) is reported as squatted.
    package static func preparePrivateDirectory(_ path: String) throws(TokenStoreError) {
        var created = false
        if mkdir(path, 0o700) == 0 {
            created = true
        } else if errno != EEXIST {
            throw .io("cannot create \(path): \(describe(errno))")
        }
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            if code == ELOOP || code == ENOTDIR {
                throw .insecurePermissions("\(path) is not a directory (a symbolic link or another file is in its place); refusing to use it: remove it, or set XDG_RUNTIME_DIR")
            }
            throw .io("cannot open \(path): \(describe(code))")
        }
        defer { close(fd) }
        if created, fchmod(fd, 0o700) != 0 { throw .io("cannot set the mode of \(path): \(describe(errno))") }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .io("cannot inspect \(path): \(describe(errno))") }
        guard info.st_uid == geteuid() else {
            throw .insecurePermissions("\(path) belongs to another user (uid \(info.st_uid)), who may have created it to block this user; refusing to use it: remove it, or set XDG_RUNTIME_DIR to a private directory")
        }
        let mode = info.st_mode & 0o7777
        guard mode & 0o077 == 0 else {
            throw .insecurePermissions("\(path) is accessible by other users (mode \(octal(mode)); expected 700; run: chmod 700 \(path))")
        }
    }
}
