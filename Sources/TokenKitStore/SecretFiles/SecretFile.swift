import Foundation

/// The one admission check for files that hold secrets (passphrases, client secrets, database
/// passwords, HMAC secrets, private keys): a file other users may read is refused, as ssh does
/// for private keys. The `tokenkit` commands and the reference clients read every such file
/// through it.
///
/// Guarantees:
/// - the file is opened once (`O_RDONLY | O_CLOEXEC`) and checked on that descriptor
///   (`fstat`), so it cannot be swapped between the check and the read;
/// - a file that holds a secret and has any group or other permission bit (mode `& 0o077`,
///   e.g. `0644`, `0640`, `0604`) is refused with ``TokenStoreError/Code/insecurePermissions``;
///   the message names the file, its mode and the fix (`chmod 600`). The rule is the mode
///   alone, whoever runs the program: root gets no exemption;
/// - ``read(_:what:limit:)`` is for files that always hold a secret: the mode is refused
///   before a byte is read. ``read(_:what:limit:holdsSecret:)`` is for files that may hold
///   only public material (a key file holding a public key may be `0644`): the bytes are read,
///   the caller's classifier decides, and a refused file's bytes are wiped before the error;
/// - a missing file, a directory, an unreadable file or one larger than `limit` bytes is
///   refused with ``TokenStoreError/Code/io``, naming the file;
/// - pipes and FIFOs (e.g. `--passphrase-file <(pass show x)`) carry mode `0600` and are
///   accepted;
/// - errors never contain the file's contents; a refused over-long read is wiped.
///
/// Does not: check the directories above the file, or the file's owner (a `0600` file of
/// another user is unreadable anyway unless you are root).
public enum SecretFile {
    /// The bytes of a file that always holds a secret (at most `limit`). The caller wipes them
    /// when done.
    ///
    /// - Parameters:
    ///   - path: the file to read.
    ///   - what: what the file holds, for messages (e.g. `"passphrase file"`).
    ///   - limit: the largest number of bytes accepted.
    /// - Throws: ``TokenStoreError`` with code `insecurePermissions` or `io` (see the type).
    public static func read(_ path: String, what: String, limit: Int) throws(TokenStoreError) -> [UInt8] {
        try read(path, what: what, limit: limit, alwaysSecret: true, holdsSecret: { _ in true })
    }

    /// The bytes of a file that may or may not hold a secret (at most `limit`), such as a key
    /// file: refused like ``read(_:what:limit:)`` when `holdsSecret` says the bytes are secret
    /// and the mode lets other users read them; accepted at any mode otherwise. The caller
    /// wipes the bytes when done (they are wiped here when refused).
    ///
    /// - Parameters:
    ///   - path: the file to read.
    ///   - what: what the file holds, for messages (e.g. `"key file"`).
    ///   - limit: the largest number of bytes accepted.
    ///   - holdsSecret: whether the bytes read hold secret material (a private key, an HMAC
    ///     secret). Called once, only when the mode is loose.
    /// - Throws: ``TokenStoreError`` with code `insecurePermissions` or `io` (see the type).
    public static func read(
        _ path: String, what: String, limit: Int, holdsSecret: ([UInt8]) -> Bool
    ) throws(TokenStoreError) -> [UInt8] {
        try read(path, what: what, limit: limit, alwaysSecret: false, holdsSecret: holdsSecret)
    }

    /// The gate: open, inspect, refuse a loose mode (before reading when the file is
    /// `alwaysSecret`, after `holdsSecret` judged the bytes otherwise), read.
    private static func read(
        _ path: String, what: String, limit: Int, alwaysSecret: Bool, holdsSecret: ([UInt8]) -> Bool
    ) throws(TokenStoreError) -> [UInt8] {
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
        let loose = mode & 0o077 != 0
        if loose && alwaysSecret { throw refusal(path, what: what, mode: mode) }
        var bytes = try readAll(fd, path: path, what: what, limit: limit)
        if loose && holdsSecret(bytes) {
            wipe(&bytes)
            throw refusal(path, what: what, mode: mode)
        }
        return bytes
    }

    /// The refusal of a secret file other users may read.
    private static func refusal(_ path: String, what: String, mode: mode_t) -> TokenStoreError {
        .insecurePermissions(
            "the \(what) \(path) has mode \(PrivateFiles.octal(mode)): it must not be readable by other users (run: chmod 600 \(path))")
    }

    /// Every byte of `fd`, at most `limit`; a failed or over-long read is wiped.
    private static func readAll(_ fd: Int32, path: String, what: String, limit: Int) throws(TokenStoreError) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        defer { wipe(&buffer) }
        while true {
            let n = buffer.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                let reason = PrivateFiles.describe(errno)
                wipe(&bytes)
                throw .io("cannot read the \(what) \(path): \(reason)")
            }
            if n == 0 { break }
            guard n <= limit - bytes.count else {
                wipe(&bytes)
                throw .io("the \(what) \(path) is larger than \(limit) bytes")
            }
            bytes.append(contentsOf: buffer[0..<n])
        }
        return bytes
    }

    private static func wipe(_ bytes: inout [UInt8]) {
        for index in bytes.indices { bytes[index] = 0 }
    }
}
