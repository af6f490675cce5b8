import Foundation
import SecretServiceTestSupport
import Testing
import TokenKitTestSupport
import TokenKitSecretService
import TokenKitStore

/// Issue 10 finding 5, the Secret Service half: the directory of the writers' lock file is
/// created and checked without following links, so another user cannot move the lock by
/// planting a symbolic link (or squat it with a directory of their own mode).
@Suite struct SecretServiceLockDirectoryTests {
    func store(lockDirectory: String) -> SecretServiceStore {
        SecretServiceStore(
            options: .init(lockFilePath: "\(lockDirectory)/secret-service.lock", timeout: .seconds(10)),
            environment: ProcessInfo.processInfo.environment)
    }

    @Test("a symbolic link in place of the lock directory is refused, and nothing is written through it")
    func symlinkedLockDirectoryRefused() async throws {
        try await SecretServiceGate.requireLive()
        let root = try PrivateTemporaryDirectory()
        let target = "\(root)/elsewhere"
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        try FileManager.default.createSymbolicLink(atPath: "\(root)/lockdir", withDestinationPath: target)
        let key = try CredentialKey(service: "tokenkit-lockdir-test", account: "symlink")
        do {
            try await store(lockDirectory: "\(root)/lockdir").save(Credential(secret: [1, 2, 3]), for: key)
            Issue.record("a write went through a symlinked lock directory")
        } catch {
            #expect(error.code == .insecurePermissions)
            #expect(error.message.contains("is not a directory (a symbolic link or another file is in its place)"), "\(error.message)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: target).isEmpty)
    }

    @Test("a lock directory other users can enter is refused, naming the mode and the fix")
    func looseLockDirectoryRefused() async throws {
        try await SecretServiceGate.requireLive()
        let root = try PrivateTemporaryDirectory()
        let directory = "\(root)/lockdir"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        chmod(directory, 0o755)
        let key = try CredentialKey(service: "tokenkit-lockdir-test", account: "loose")
        do {
            try await store(lockDirectory: directory).save(Credential(secret: [1, 2, 3]), for: key)
            Issue.record("a write used a lock directory of mode 0755")
        } catch {
            #expect(error.code == .insecurePermissions)
            #expect(error.message.contains("chmod 700"), "\(error.message)")
        }
        #expect(!FileManager.default.fileExists(atPath: "\(directory)/secret-service.lock"))
    }
}
