import Foundation
import Testing
import TokenKitTestSupport
import TokenKitStore

/// ``RescuingTokenStore``: a write its primary store fails goes to the rescue file, is read
/// from there, and goes back into the primary store with the next write that succeeds.
@Suite("RescuingTokenStore")
struct RescuingTokenStoreTests {
    final class Notices: @unchecked Sendable {
        private let lock = NSLock()
        private var all: [RescueNotice] = []
        func add(_ notice: RescueNotice) { lock.withLock { all.append(notice) } }
        var list: [RescueNotice] { lock.withLock { all } }
    }

    struct Fixture {
        let directory: PrivateTemporaryDirectory
        let primary = FailingTokenStore()
        let notices = Notices()
        let rescueFile: RescueFile
        let store: RescuingTokenStore
        let key = try! CredentialKey(service: "svc", account: "acct")

        init() throws {
            directory = try PrivateTemporaryDirectory()
            rescueFile = RescueFile(path: "\(directory)/state/rescue.tkstore", keyPath: "\(directory)/config/rescue.key")
            let notices = notices
            store = RescuingTokenStore(
                primary: primary, rescueFile: rescueFile, retry: .init(pauses: [.milliseconds(1), .milliseconds(1)]),
                onRescue: { notices.add($0) })
        }

        func tokens(_ name: String) -> Credential { Credential(tokenSet: TokenSet(accessToken: "at-\(name)", refreshToken: "rt-\(name)")) }
        func rescued() async throws -> Credential? { try await rescueFile.openIfPresent()?.load(key) }
    }

    @Test("a failed save goes to the rescue file, with one notice; load returns it while the primary store fails")
    func saveRescued() async throws {
        let fx = try Fixture()
        await fx.primary.fail(with: .init(code: .locked, message: "the default keyring collection is locked"))
        try await fx.store.save(fx.tokens("one"), for: fx.key)
        #expect(await fx.primary.failedWrites == 1, "a locked keyring is not retried")
        let notice = try #require(fx.notices.list.first)
        #expect(fx.notices.list.count == 1)
        #expect(notice.backendName == "failing-memory" && notice.rescuePath == fx.rescueFile.path && notice.failure.code == .locked)
        #expect(try await fx.store.load(fx.key)?.hasSameSecret(as: fx.tokens("one")) == true)
        #expect(try await fx.primary.base.load(fx.key) == nil)
        // The key file and the rescue file are private.
        for path in [fx.rescueFile.path, fx.rescueFile.keyPath] {
            let mode = try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
            #expect(mode == 0o600, "\(path)")
        }
    }

    @Test("a refresh of a rescued credential moves the result back into the primary store and clears the rescue file")
    func replaceMovesBack() async throws {
        let fx = try Fixture()
        try await fx.primary.base.save(fx.tokens("old"), for: fx.key)
        await fx.primary.fail(with: .init(code: .timeout, message: "did not answer within 5 s"), writesOnly: true)
        #expect(try await fx.store.replace(fx.key, expected: fx.tokens("old"), with: fx.tokens("two")))
        #expect(await fx.primary.failedWrites == 1, "a timeout is not retried")
        #expect(try await fx.rescued()?.hasSameSecret(as: fx.tokens("two")) == true)
        // The primary still holds the old set, but the rescued one is newer: it wins.
        #expect(try await fx.store.load(fx.key)?.hasSameSecret(as: fx.tokens("two")) == true)
        #expect(try await fx.store.replace(fx.key, expected: fx.tokens("old"), with: fx.tokens("x")) == false, "compare-and-swap against the rescued set")

        await fx.primary.fail(with: nil)
        #expect(try await fx.store.replace(fx.key, expected: fx.tokens("two"), with: fx.tokens("three")))
        #expect(try await fx.primary.base.load(fx.key)?.hasSameSecret(as: fx.tokens("three")) == true)
        #expect(try await fx.rescued() == nil)
        #expect(fx.notices.list.count == 1)
    }

    @Test("a passing failure is retried, and a retried write is not rescued")
    func retried() async throws {
        let fx = try Fixture()
        await fx.primary.fail(with: .init(code: .noSecretService, message: "no Secret Service"), writesOnly: true, times: 2)
        try await fx.store.save(fx.tokens("one"), for: fx.key)
        #expect(await fx.primary.failedWrites == 2)
        #expect(fx.notices.list.isEmpty)
        #expect(try await fx.primary.base.load(fx.key)?.hasSameSecret(as: fx.tokens("one")) == true)
        #expect(try fx.rescueFile.openIfPresent() == nil, "nothing rescued, no key made")
    }

    @Test("with the primary store unreadable and nothing rescued, a refreshed set is kept, not dropped")
    func unreadablePrimary() async throws {
        let fx = try Fixture()
        await fx.primary.fail(with: .init(code: .noSecretService, message: "no Secret Service"))
        #expect(try await fx.store.replace(fx.key, expected: fx.tokens("old"), with: fx.tokens("new")))
        #expect(try await fx.rescued()?.hasSameSecret(as: fx.tokens("new")) == true)
        #expect(try await fx.store.replace(fx.key, expected: fx.tokens("gone"), with: nil) == false)
    }

    @Test("delete removes the credential from the rescue file and the primary store")
    func deleteBoth() async throws {
        let fx = try Fixture()
        try await fx.primary.base.save(fx.tokens("old"), for: fx.key)
        await fx.primary.fail(with: .init(code: .locked, message: "locked"), writesOnly: true, times: 1)
        try await fx.store.save(fx.tokens("new"), for: fx.key)
        #expect(try await fx.store.delete(fx.key))
        #expect(try await fx.store.load(fx.key) == nil)
        #expect(try await fx.rescued() == nil)
    }

    @Test("when the rescue file cannot be written either, the error names both failures")
    func bothFail() async throws {
        let fx = try Fixture()
        // The rescue key's directory is a file: nothing can be created there.
        _ = FileManager.default.createFile(atPath: "\(fx.directory)/config", contents: Data())
        await fx.primary.fail(with: .init(code: .locked, message: "KEYRING-LOCKED"))
        let error = await #expect(throws: TokenStoreError.self) { try await fx.store.save(fx.tokens("one"), for: fx.key) }
        #expect(error?.code == .locked)
        #expect(error?.message.hasPrefix("KEYRING-LOCKED; the rescue file \(fx.rescueFile.path) could not take it either: ") == true, "\(String(describing: error))")
        #expect(fx.notices.list.isEmpty)
    }

    @Test("a rescue key that is not 32 bytes is refused, never replaced")
    func foreignKey() async throws {
        let fx = try Fixture()
        try FileManager.default.createDirectory(atPath: "\(fx.directory)/config", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        _ = FileManager.default.createFile(atPath: fx.rescueFile.keyPath, contents: Data(repeating: 7, count: 31), attributes: [.posixPermissions: 0o600])
        let error = #expect(throws: TokenStoreError.self) { try fx.rescueFile.open() }
        #expect(error?.code == .corrupted && error?.message.contains("31 bytes, not 32") == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: fx.rescueFile.keyPath)).count == 31)
    }
}
