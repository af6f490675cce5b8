import Foundation
import Testing
import TokenKitStore
import TokenKitTestSupport

/// The file is created 0600 in a 0700 directory; looser modes, other owners' directories
/// and symbolic links are refused with a message that names the fix.
@Suite("Encrypted file: permissions")
struct EncryptedFilePermissionTests {
    func store(_ path: String) throws -> EncryptedFileStore {
        EncryptedFileStore(path: path, key: try .passphrase("pw"), options: .init(scryptCost: ScryptCost(logN: 4, r: 8, p: 1)))
    }

    func mode(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    func testKey() throws -> CredentialKey { try CredentialKey(service: "svc", account: "acct") }

    @Test("a new store creates its directories 0700 and the file and lock file 0600, whatever the umask",
          arguments: ["000", "0277", "0077"])
    func createdPrivate(umask: String) async throws {
        let helper = try BuiltBinary.path(named: "tokenkit-store-stress")
        let root = try PrivateTemporaryDirectory()
        let path = "\(root)/a/b/credentials.tkstore"
        let passphraseFile = "\(root)/passphrase"
        try #require(FileManager.default.createFile(
            atPath: passphraseFile, contents: Data("pw\n".utf8), attributes: [.posixPermissions: 0o600]))
        // The umask belongs to the whole process and tests run in parallel: set it in a child
        // that creates the store, never here (it would change other tests' files). 0277 once
        // left a 0400 lock file and 0500 directories (issue 10 finding 6).
        let status = try await ChildProcess(
            "/bin/sh", ["-c", "umask \(umask) && exec \"$0\" \"$@\"", helper, "fill", path, passphraseFile, "4", "acct", "2"],
            stdin: .inherit, stderr: .discard
        ).run().status
        #expect(status == 0)
        #expect(try mode("\(root)/a") == 0o700)
        #expect(try mode("\(root)/a/b") == 0o700)
        #expect(try mode(path) == 0o600)
        #expect(try mode(path + ".lock") == 0o600)
    }

    @Test("a 0644 file is refused for reading and writing, naming the fix, and left alone",
          arguments: [0o644, 0o640, 0o604, 0o660])
    func looseFile(_ loose: Int) async throws {
        let root = try PrivateTemporaryDirectory()
        let path = "\(root)/credentials.tkstore"
        try await store(path).save(Credential(secret: [1]), for: try testKey())
        chmod(path, mode_t(loose))
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let reader = try store(path)
        let key = try testKey()
        do {
            _ = try await reader.load(key)
            Issue.record("a \(String(loose, radix: 8)) file was read")
        } catch {
            #expect(error.code == .insecurePermissions)
            #expect(error.message.contains("chmod 600"))
            #expect(error.message.contains(String(loose, radix: 8)))
        }
        await #expect(throws: TokenStoreError(code: .insecurePermissions, message: "")) {
            try await store(path).save(Credential(secret: [2]), for: try testKey())
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(try mode(path) == loose)
    }

    @Test("a directory other users may write is refused")
    func looseDirectory() async throws {
        let root = try PrivateTemporaryDirectory()
        let directory = "\(root)/shared"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        chmod(directory, 0o777)
        await #expect(throws: TokenStoreError(code: .insecurePermissions, message: "")) {
            try await store("\(directory)/credentials.tkstore").save(Credential(secret: [1]), for: try testKey())
        }
        #expect(!FileManager.default.fileExists(atPath: "\(directory)/credentials.tkstore"))
    }

    @Test("a symbolic link in place of the file is refused")
    func symlink() async throws {
        let root = try PrivateTemporaryDirectory()
        try await store("\(root)/real.tkstore").save(Credential(secret: [1]), for: try testKey())
        try FileManager.default.createSymbolicLink(atPath: "\(root)/link.tkstore", withDestinationPath: "\(root)/real.tkstore")
        await #expect(throws: TokenStoreError(code: .insecurePermissions, message: "")) {
            try await store("\(root)/link.tkstore").load(try testKey())
        }
    }

    @Test("a store directory reached through a symbolic link owned by another user is refused; one owned by this user is followed",
          .enabled(if: geteuid() == 0, "making a link owned by another user needs root (CI runs as root)"))
    func directoryLinkOwnedByAnotherUser() async throws {
        let root = try PrivateTemporaryDirectory()
        let real = "\(root)/real"
        try FileManager.default.createDirectory(atPath: real, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        try await store("\(real)/credentials.tkstore").save(Credential(secret: [1]), for: try testKey())
        let mine = "\(root)/mine", theirs = "\(root)/theirs"
        try FileManager.default.createSymbolicLink(atPath: mine, withDestinationPath: real)
        try FileManager.default.createSymbolicLink(atPath: theirs, withDestinationPath: real)
        try #require(lchown(theirs, 65534, 65534) == 0, "lchown: \(errno)")
        #expect(try await store("\(mine)/credentials.tkstore").load(try testKey())?.secret == [1])
        for operation in ["load", "save"] {
            let error = await #expect(throws: TokenStoreError.self, "\(operation)") {
                if operation == "load" {
                    _ = try await store("\(theirs)/credentials.tkstore").load(try testKey())
                } else {
                    try await store("\(theirs)/credentials.tkstore").save(Credential(secret: [2]), for: try testKey())
                }
            }
            #expect(error?.code == .insecurePermissions)
            #expect(error?.message == "\(theirs) is a symbolic link owned by another user (uid 65534), who can point it anywhere; refusing to keep credentials there")
        }
        #expect(try await store("\(real)/credentials.tkstore").load(try testKey())?.secret == [1])
    }

    @Test("the default location follows XDG_DATA_HOME, then HOME")
    func defaultPath() throws {
        #expect(try EncryptedFileStore.defaultPath(environment: ["XDG_DATA_HOME": "/x/data", "HOME": "/home/u"]) == "/x/data/tokenkit/credentials.tkstore")
        #expect(try EncryptedFileStore.defaultPath(environment: ["XDG_DATA_HOME": "relative", "HOME": "/home/u"]) == "/home/u/.local/share/tokenkit/credentials.tkstore")
        #expect(try EncryptedFileStore.defaultPath(environment: ["HOME": "/home/u"]) == "/home/u/.local/share/tokenkit/credentials.tkstore")
        #expect(throws: TokenStoreError(code: .io, message: "")) { try EncryptedFileStore.defaultPath(environment: [:]) }
    }
}
