import Dispatch
import Foundation
internal import TokenKitCrypto

/// A ``TokenStore`` that keeps every credential in one AES-256-GCM encrypted file.
///
/// Guarantees:
/// - The file (format: docs/FILE-FORMAT.md) is encrypted and authenticated with a key derived
///   from a passphrase (scrypt, parameters in the authenticated header) or a raw 32-byte key;
///   every write uses a fresh random nonce.
/// - Writes are atomic (temporary file, fsync, rename, directory fsync): after a crash the
///   file holds the old state or the new one.
/// - Read-modify-write runs under an exclusive `flock` on `PATH.lock`, so processes writing
///   at once never lose each other's entries, and ``replace(_:expected:with:)`` is a true
///   compare-and-swap across processes.
/// - The file is created 0600 and its directory 0700; a file any other user may access, a
///   symbolic link, or a directory others may write is refused with
///   ``TokenStoreError/Code/insecurePermissions``.
/// - A wrong passphrase (``TokenStoreError/Code/wrongPassphrase``) and a modified, truncated
///   or foreign file (``TokenStoreError/Code/corrupted``) are different errors; a file that
///   fails to open is never overwritten or reset.
///
/// Does not: lock pages in memory, wipe the copies of secrets that decoding makes (only the
/// keys and the decrypted file image are wiped), or protect against an attacker who can run
/// code as the same user. Blocking work runs on a private serial queue, not the cooperative
/// pool.
public final class EncryptedFileStore: TokenStorePreflight {
    /// How new files are created.
    public struct Options: Sendable {
        /// The scrypt cost for a file this store creates; an existing file keeps its own.
        public var scryptCost: ScryptCost

        /// Called inside each write, after the temporary file is written and synced and before
        /// it is renamed over the store (so a crash test can kill the writer exactly there).
        /// For tests in this package only.
        package var beforeRename: (@Sendable (_ temporaryPath: String) -> Void)?

        /// Options with the given cost (default: ``ScryptCost/interactive``).
        public init(scryptCost: ScryptCost = .interactive) {
            self.scryptCost = scryptCost
        }
    }

    /// The store file's path.
    public let path: String
    private let lockPath: String
    private let directory: String
    private let cipher: FileCipher
    private let queue: DispatchQueue
    private let clock: any TokenClock
    private let beforeRename: (@Sendable (String) -> Void)?

    /// A store backed by the file at `path` (created on first write), opened with `key`.
    ///
    /// Nothing is read until the first operation, so a wrong passphrase surfaces there.
    public init(path: String, key: FileStoreKey, options: Options = Options(), clock: any TokenClock = SystemClock()) {
        // Used as given: resolving symbolic links here would defeat the refusal to follow one.
        self.path = path
        self.lockPath = path + ".lock"
        self.directory = PathSplit.directory(of: path)
        let cost = options.scryptCost
        self.cipher = FileCipher(key: key, newFileCost: Scrypt.Parameters(logN: cost.logN, r: cost.r, p: cost.p))
        self.queue = DispatchQueue(label: "dev.tokenkit.file-store")
        self.clock = clock
        self.beforeRename = options.beforeRename
    }

    /// The default location: `$XDG_DATA_HOME/tokenkit/credentials.tkstore`, or
    /// `$HOME/.local/share/tokenkit/credentials.tkstore` when `XDG_DATA_HOME` is unset or not
    /// absolute (as the XDG Base Directory specification says). Reads only `environment`.
    public static func defaultPath(environment: [String: String]) throws(TokenStoreError) -> String {
        "\(try XDGDirectory.data.path(environment: environment))/tokenkit/credentials.tkstore"
    }

    /// Always `"file"`.
    public var backendName: String { "file" }

    /// Stores `credential` under `key`, replacing any previous one (atomically, under the lock).
    public func save(_ credential: Credential, for key: CredentialKey) async throws(TokenStoreError) {
        let now = clock.now
        try await update { entries in
            entries[key] = credential.stamped(replacing: entries[key], now: now)
            return ((), true)
        }
    }

    /// Returns the credential under `key`, or `nil` when there is none (or no file yet).
    public func load(_ key: CredentialKey) async throws(TokenStoreError) -> Credential? {
        try await read { $0[key] }
    }

    /// Deletes the credential under `key`; returns `false` when there was none.
    @discardableResult
    public func delete(_ key: CredentialKey) async throws(TokenStoreError) -> Bool {
        try await update { entries in
            let removed = entries.removeValue(forKey: key) != nil
            return (removed, removed)
        }
    }

    /// The accounts of `service`, sorted by name, without secrets.
    public func accounts(service: String) async throws(TokenStoreError) -> [CredentialInfo] {
        try await read { entries in
            entries
                .filter { $0.key.service == service }
                .map { CredentialInfo(account: $0.key.account, credential: $0.value) }
                .sorted { $0.account < $1.account }
        }
    }

    /// Compare-and-swap under the file lock; see ``TokenStore/replace(_:expected:with:)``.
    public func replace(_ key: CredentialKey, expected: Credential?, with new: Credential?) async throws(TokenStoreError) -> Bool {
        let now = clock.now
        return try await update { entries in
            guard Credential.matches(stored: entries[key], expected: expected) else { return (false, false) }
            if let new {
                entries[key] = new.stamped(replacing: entries[key], now: now)
            } else {
                entries.removeValue(forKey: key)
            }
            return (true, true)
        }
    }

    /// Checks that a write could succeed now: the directory exists or can be made (0700),
    /// the lock can be taken, and the file (if any) opens with this key. Writes nothing.
    public func checkWritable() async throws(TokenStoreError) {
        try await update { _ in ((), false) }
    }

    // MARK: - Reading and writing the file

    private typealias Entries = [CredentialKey: Credential]

    /// Runs `body` on the current entries without taking the lock (writers replace the file
    /// atomically, so a reader always sees one complete version).
    private func read<T: Sendable>(_ body: @escaping @Sendable (Entries) -> T) async throws(TokenStoreError) -> T {
        try await BlockingCall.run(on: queue) { [self] () throws(TokenStoreError) -> T in
            guard try PrivateFiles.checkDirectory(directory, create: false) else { return body([:]) }
            return body(try loadEntries().entries)
        }
    }

    /// Locks, reads, lets `body` change the entries, and writes them back if it says so.
    private func update<T: Sendable>(_ body: @escaping @Sendable (inout Entries) -> (T, Bool)) async throws(TokenStoreError) -> T {
        try await BlockingCall.run(on: queue) { [self] () throws(TokenStoreError) -> T in
            try PrivateFiles.checkDirectory(directory, create: true)
            let lock = try FileLock(path: lockPath)
            defer { withExtendedLifetime(lock) {} }
            PrivateFiles.removeStaleTemporaries(of: path)
            var (header, entries) = try loadEntries()
            let (result, changed) = body(&entries)
            guard changed else { return result }
            let plaintext = SecureBytes(try FilePayload(credentials: entries).encoded())
            let image = try cipher.seal(plaintext, previous: header, path: path)
            try PrivateFiles.replaceAtomically(path, with: image, beforeRename: beforeRename)
            return result
        }
    }

    private func loadEntries() throws(TokenStoreError) -> (header: FileHeader?, entries: Entries) {
        guard let file = try PrivateFiles.readIfPresent(path) else { return (nil, [:]) }
        let (header, plaintext) = try cipher.open(file: file, path: path)
        // Decode straight from the wiped-on-release buffer: no unprotected copy of the image.
        let payload = plaintext.withUnsafeBytes { bytes in
            Result { () throws(TokenStoreError) -> FilePayload in
                guard let base = bytes.baseAddress, !bytes.isEmpty else { throw .corrupted("\(path) decrypted to nothing") }
                let view = Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: bytes.count, deallocator: .none)
                return try FilePayload.decode(view, path: path)
            }
        }
        return (header, try payload.get().credentials(path: path))
    }
}
