import Foundation
import Testing
import TokenKitStore
import TokenKitTestSupport

/// The per-host refresh lock (moved down next to TokenStore in issue 24); the providers that
/// use it are tested in TokenKitAuthTests (AuthProviderFileLockTests).
@Suite("FileRefreshLock")
struct FileRefreshLockTests {
    /// This test's private directory (each test gets its own suite instance).
    let scratch: PrivateTemporaryDirectory

    init() throws {
        scratch = try PrivateTemporaryDirectory(prefix: "tokenkit-lock-test")
    }

    /// A fresh path (not created) in ``scratch``.
    func temporaryDirectory() -> String {
        scratch.file(UUID().uuidString)
    }

    @Test("the default directory is under XDG_RUNTIME_DIR, else a per-uid /tmp directory")
    func defaultDirectory() {
        #expect(FileRefreshLock.defaultDirectory(environment: ["XDG_RUNTIME_DIR": "/run/user/1000"], userID: 1000) == "/run/user/1000/tokenkit")
        #expect(FileRefreshLock.defaultDirectory(environment: [:], userID: 1000) == "/tmp/tokenkit-1000")
        #expect(FileRefreshLock.defaultDirectory(environment: ["XDG_RUNTIME_DIR": "relative"], userID: 7) == "/tmp/tokenkit-7")
    }

    @Test("the directory is created 0700 and a group-readable one is refused")
    func directoryPermissions() async throws {
        let directory = temporaryDirectory()
        let key = try CredentialKey(service: "s", account: "a")
        let lease = try await FileRefreshLock(directory: directory).acquire(for: key)
        lease.release()
        let mode = try FileManager.default.attributesOfItem(atPath: directory)[.posixPermissions] as? Int
        #expect(mode == 0o700)
        try FileManager.default.setAttributes([.posixPermissions: 0o750], ofItemAtPath: directory)
        let error = await #expect(throws: TokenStoreError.self) { try await FileRefreshLock(directory: directory).acquire(for: key) }
        #expect(error?.code == .lock)
        #expect(error?.message.contains("expected 700") == true)
    }

    @Test("a lock directory another user created (squatting /tmp/tokenkit-<uid>) is reported as such")
    func squattedDirectory() async throws {
        let directory = temporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        // Another owner: as root, hand it to a uid nobody uses; otherwise a root-owned directory
        // stands for "someone else's" (an unprivileged user cannot give files away).
        let stranger: uid_t = geteuid() == 0 ? 54_321 : 0
        if geteuid() == 0 {
            #expect(chown(directory, stranger, stranger) == 0)
        } else {
            try FileManager.default.removeItem(atPath: directory)
            #expect(symlink("/", directory) == 0)
        }
        let error = await #expect(throws: TokenStoreError.self) {
            try await FileRefreshLock(directory: directory).acquire(for: CredentialKey(service: "s", account: "a"))
        }
        #expect(error?.code == .lock)
        if geteuid() == 0 {
            #expect(error?.message.contains("belongs to another user (uid 54321)") == true, "\(error?.message ?? "")")
            #expect(error?.message.contains("set XDG_RUNTIME_DIR") == true)
        }
    }

    @Test("a symbolic link in place of the lock directory is refused, even to a private directory")
    func symlinkedDirectory() async throws {
        let target = temporaryDirectory()
        let link = temporaryDirectory()
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        #expect(symlink(target, link) == 0)
        let error = await #expect(throws: TokenStoreError.self) {
            try await FileRefreshLock(directory: link).acquire(for: CredentialKey(service: "s", account: "a"))
        }
        #expect(error?.message.contains("a symbolic link or another file is in its place") == true, "\(error?.message ?? "")")
        #expect(try FileManager.default.contentsOfDirectory(atPath: target).isEmpty)
    }

    @Test("a second holder waits until the first releases, and times out with a clear error")
    func exclusion() async throws {
        let directory = temporaryDirectory()
        let key = try CredentialKey(service: "s", account: "a")
        let first = try await FileRefreshLock(directory: directory).acquire(for: key)
        let error = await #expect(throws: TokenStoreError.self) {
            try await FileRefreshLock(directory: directory, timeout: .milliseconds(50)).acquire(for: key)
        }
        #expect(error?.message.contains("timed out") == true)
        // Another key is independent.
        try await FileRefreshLock(directory: directory, timeout: .milliseconds(50)).acquire(for: CredentialKey(service: "s", account: "b")).release()
        let waiter = Task { try await FileRefreshLock(directory: directory, timeout: .seconds(30)).acquire(for: key) }
        first.release()
        try await waiter.value.release()
    }
}
