import Foundation
import Testing
import TokenKitTestSupport
import TokenKitStore

/// `SecretFile.read`: the one permission check every secret file goes through (passphrase,
/// client secret, database password, HMAC secret and private-key files: the CLI's and the
/// reference apps'), and its refusals.
@Suite("SecretFile: reading files that hold secrets")
struct SecretFileTests {
    /// A fresh private directory holding the file `secret` with `contents` and `mode`.
    func privateDirectory(holding contents: String, mode: Int) throws -> PrivateTemporaryDirectory {
        let directory = try PrivateTemporaryDirectory()
        try directory.write("secret", contents, mode: mode)
        return directory
    }

    @Test("a 0600 file is read whole")
    func privateFileAccepted() throws {
        let directory = try privateDirectory(holding: "hunter2\n", mode: 0o600)
        let path = directory.file("secret")
        #expect(try SecretFile.read(path, what: "passphrase file", limit: 64) == Array("hunter2\n".utf8))
    }

    @Test("a file other users may read is refused before it is read, naming the file, its mode and the fix", arguments: [0o644, 0o640, 0o604, 0o620])
    func looseModeRefused(mode: Int) throws {
        let directory = try privateDirectory(holding: "hunter2\n", mode: mode)
        let path = directory.file("secret")
        let error = #expect(throws: TokenStoreError.self) { try SecretFile.read(path, what: "passphrase file", limit: 64) }
        #expect(error?.code == .insecurePermissions)
        let shown = "0" + String(mode, radix: 8)
        #expect(error?.message == "the passphrase file \(path) has mode \(shown): it must not be readable by other users (run: chmod 600 \(path))")
        #expect(error?.message.contains("hunter2") == false)
    }

    @Test("a file that may hold a secret is refused at a loose mode only when its bytes hold one; the classifier decides on the bytes read",
          arguments: [0o644, 0o640, 0o604])
    func classifiedFiles(mode: Int) throws {
        let directory = try privateDirectory(holding: "PRIVATE", mode: mode)
        let path = directory.file("secret")
        let error = #expect(throws: TokenStoreError.self) {
            try SecretFile.read(path, what: "key file", limit: 64) { $0 == Array("PRIVATE".utf8) }
        }
        #expect(error?.code == .insecurePermissions)
        let shown = "0" + String(mode, radix: 8)
        #expect(error?.message == "the key file \(path) has mode \(shown): it must not be readable by other users (run: chmod 600 \(path))")
        #expect(try SecretFile.read(path, what: "key file", limit: 64) { _ in false } == Array("PRIVATE".utf8))
    }

    @Test("a private (0600) file is read without asking the classifier")
    func classifierNotAskedForPrivateFile() throws {
        let directory = try privateDirectory(holding: "PRIVATE", mode: 0o600)
        let path = directory.file("secret")
        #expect(try SecretFile.read(path, what: "key file", limit: 64) { _ in
            Issue.record("classifier called for a 0600 file")
            return true
        } == Array("PRIVATE".utf8))
    }

    @Test("a missing file is an io error naming it")
    func missingFile() throws {
        let directory = try PrivateTemporaryDirectory()
        let error = #expect(throws: TokenStoreError.self) { try SecretFile.read(directory.file("absent"), what: "client secret file", limit: 64) }
        #expect(error?.code == .io)
        #expect(error?.message == "cannot read the client secret file \(directory)/absent: no such file")
    }

    @Test("a directory is refused as one, even with mode 0700")
    func directoryRefused() throws {
        let directory = try PrivateTemporaryDirectory()
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory.path)
        let error = #expect(throws: TokenStoreError.self) { try SecretFile.read(directory.path, what: "passphrase file", limit: 64) }
        #expect(error?.code == .io)
        #expect(error?.message == "cannot read the passphrase file \(directory): it is a directory")
    }

    @Test("a file larger than the limit is refused without its contents; one exactly at the limit is read")
    func sizeLimit() throws {
        let directory = try privateDirectory(holding: "0123456789", mode: 0o600)
        let path = directory.file("secret")
        #expect(try SecretFile.read(path, what: "passphrase file", limit: 10).count == 10)
        let error = #expect(throws: TokenStoreError.self) { try SecretFile.read(path, what: "passphrase file", limit: 9) }
        #expect(error?.code == .io)
        #expect(error?.message == "the passphrase file \(path) is larger than 9 bytes")
    }
}
