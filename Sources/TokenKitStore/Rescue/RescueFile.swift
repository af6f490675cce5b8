import Foundation
internal import TokenKitCrypto

/// Where a token set goes when the store it belongs in cannot take it (see
/// ``RescuingTokenStore``): an ``EncryptedFileStore`` at ``path`` (0600, directory 0700),
/// encrypted with a random 32-byte key kept in a separate 0600 file at ``keyPath``.
///
/// Why a key file rather than a passphrase: the rescue file is written at the moment the
/// chosen store failed, often by a process with no terminal (a keyring backend never asks for
/// a passphrase), and the next `token` must read it without asking either. So the protection
/// is the user's file permissions, like any credential file; the encryption only keeps a copy
/// of one of the two files (a backup of `~/.local/state`, a dotfiles repository of
/// `~/.config`, a file attached to a bug report) from revealing the tokens.
///
/// Guarantees: the key is created once (random, 32 bytes, linked into place so two processes
/// racing agree on one key) and afterwards only read; a key file that is not a regular 0600
/// file of this user, or not exactly 32 bytes, is refused with a ``TokenStoreError`` naming
/// it, never replaced. Does not: protect against processes running as the same user (they can
/// read both files), or survive the deletion of the key file (the rescued sets are then
/// unreadable, reported as a wrong key).
public struct RescueFile: Sendable {
    /// The encrypted file holding rescued credentials.
    public let path: String
    /// The file holding the raw key that opens ``path``.
    public let keyPath: String

    /// A rescue file at `path` opened with the key in `keyPath`.
    public init(path: String, keyPath: String) {
        self.path = path
        self.keyPath = keyPath
    }

    /// The standard places: `$XDG_STATE_HOME/tokenkit/rescue.tkstore` (else
    /// `$HOME/.local/state/tokenkit/…`) and the key in `$XDG_CONFIG_HOME/tokenkit/rescue.key`
    /// (else `$HOME/.config/tokenkit/…`): two directories, so that copying one of them does
    /// not copy both. Reads only `environment`.
    public static func standard(environment: [String: String]) throws(TokenStoreError) -> RescueFile {
        let state = try XDGDirectory.state.path(environment: environment)
        let config = try XDGDirectory.config.path(environment: environment)
        return RescueFile(path: "\(state)/tokenkit/rescue.tkstore", keyPath: "\(config)/tokenkit/rescue.key")
    }

    /// The store, with its key read from ``keyPath`` or, when there is none yet, created there.
    public func open() throws(TokenStoreError) -> EncryptedFileStore {
        EncryptedFileStore(path: path, key: try loadOrCreateKey())
    }

    /// The store when a key file exists, else `nil` (nothing was ever rescued): never creates
    /// a key, for readers.
    public func openIfPresent() throws(TokenStoreError) -> EncryptedFileStore? {
        guard try PrivateFiles.checkDirectory(PathSplit.directory(of: keyPath), create: false),
              var bytes = try PrivateFiles.readIfPresent(keyPath)
        else { return nil }
        defer { for i in bytes.indices { bytes[i] = 0 } }
        return EncryptedFileStore(path: path, key: try key(from: bytes))
    }

    private func loadOrCreateKey() throws(TokenStoreError) -> FileStoreKey {
        try PrivateFiles.checkDirectory(PathSplit.directory(of: keyPath), create: true)
        if var existing = try PrivateFiles.readIfPresent(keyPath) {
            defer { for i in existing.indices { existing[i] = 0 } }
            return try key(from: existing)
        }
        var fresh: [UInt8]
        do throws(CryptoError) { fresh = try RandomBytes.generate(count: 32) } catch { throw .io("cannot make a key for the rescue file: \(error.message)") }
        defer { for i in fresh.indices { fresh[i] = 0 } }
        if try PrivateFiles.createExclusively(keyPath, with: fresh) { return try key(from: fresh) }
        // Another process created it first: use its key.
        guard var winner = try PrivateFiles.readIfPresent(keyPath) else { throw .io("the rescue key \(keyPath) vanished while it was being created") }
        defer { for i in winner.indices { winner[i] = 0 } }
        return try key(from: winner)
    }

    private func key(from bytes: [UInt8]) throws(TokenStoreError) -> FileStoreKey {
        guard bytes.count == 32 else {
            throw .corrupted("the rescue key \(keyPath) holds \(bytes.count) bytes, not 32; it was not written by TokenKit (move it away to start a new rescue file)")
        }
        return try FileStoreKey.rawKey(bytes)
    }
}
