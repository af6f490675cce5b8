import Foundation
import Testing
import TokenKitStore
import TokenKitTestSupport

/// Real child processes (`tokenkit-store-stress`) writing one store file: killed with SIGKILL
/// mid-write, or writing all at once.
@Suite("Encrypted file: crashes and concurrent processes")
struct EncryptedFileProcessTests {
    static let passphrase = "stress-pass"

    struct Fixture: Sendable {
        let directory: PrivateTemporaryDirectory
        let path: String
        let passphraseFile: String
        let helper: String

        init() throws {
            let helper = try BuiltBinary.path(named: "tokenkit-store-stress")
            directory = try PrivateTemporaryDirectory()
            path = "\(directory)/store/credentials.tkstore"
            passphraseFile = "\(directory)/passphrase"
            self.helper = helper
            guard FileManager.default.createFile(atPath: passphraseFile, contents: Data("\(EncryptedFileProcessTests.passphrase)\n".utf8), attributes: [.posixPermissions: 0o600]) else {
                throw CocoaError(.fileWriteUnknown)
            }
        }

        func launch(_ mode: String, _ name: String, count: Int) throws -> ChildProcess.Running {
            try ChildProcess(helper, [mode, path, passphraseFile, "4", name, String(count)], stdin: .inherit, stderr: .discard).start()
        }

        func store() throws -> EncryptedFileStore {
            EncryptedFileStore(path: path, key: try .passphrase(EncryptedFileProcessTests.passphrase), options: .init(scryptCost: ScryptCost(logN: 4, r: 8, p: 1)))
        }
    }

    @Test("SIGKILL inside the write (temporary written, not renamed), 12 times: the file opens and holds exactly the state before")
    func killedWriters() async throws {
        let fixture = try Fixture()
        let keeper = try CredentialKey(service: "stress", account: "keeper")
        let target = try CredentialKey(service: "stress", account: "target")
        try await fixture.store().save(Credential(secret: Array("keep-me".utf8)), for: keeper)
        for round in 0..<12 {
            // The writer stops inside its k-th write and reports it, with the temporary's path.
            let k = 1 + round % 4
            let (report, temporaryExisted, killed) = try await offPool { () throws -> (String, Bool, Bool) in
                let writer = try fixture.launch("pause-in-write", "target", count: k)
                let text = writer.waitForStdout { $0.contains("inside ") && $0.hasSuffix("\n") }
                let line = text.split(separator: "\n").last.map(String.init) ?? ""
                let temporary = line.split(separator: " ").last.map(String.init) ?? ""
                let existed = !temporary.isEmpty && FileManager.default.fileExists(atPath: temporary)
                writer.signal(SIGKILL)
                return (line, existed, try writer.wait().signal != nil)
            }
            #expect(report.hasPrefix("inside \(k) "), "round \(round): the writer reported \(report)")
            #expect(temporaryExisted, "round \(round): the temporary was not on disk when the writer was killed")
            #expect(killed, "round \(round)")
            // The killed write never landed: the file holds value-(k-1), the last completed one.
            let store = try fixture.store()
            let loaded = try await store.load(target).map { String(decoding: $0.secret, as: UTF8.self) }
            // (Write 1 killed: what the previous round left, value-3, or nothing in round 0.)
            let expected: String? = k > 1 ? "value-\(k - 1)" : (round == 0 ? nil : "value-3")
            #expect(loaded == expected, "round \(round): killed inside write \(k), found \(loaded ?? "nothing")")
            #expect(try await store.load(keeper)?.secret == Array("keep-me".utf8), "round \(round)")
        }
        // Each writer sweeps the temporaries of killed ones: the last round's is still there...
        let before = try FileManager.default.contentsOfDirectory(atPath: "\(fixture.directory)/store").filter { $0.contains(".tmp-") }
        #expect(before.count == 1)
        try await fixture.store().save(Credential(secret: [1]), for: try CredentialKey(service: "stress", account: "after"))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: "\(fixture.directory)/store").filter { $0.contains(".tmp-") }
        #expect(leftovers.isEmpty)
    }

    @Test("several processes writing their own accounts at once: every entry is there afterwards")
    func concurrentProcesses() async throws {
        let fixture = try Fixture()
        let writers = 4, perWriter = 15
        let statuses = try await offPool { () throws -> [Int32] in
            let launched = try (0..<writers).map { try fixture.launch("fill", "p\($0)", count: perWriter) }
            return try launched.map { try $0.wait().status }
        }
        #expect(statuses == Array(repeating: 0, count: writers))
        let store = try fixture.store()
        let accounts = try await store.accounts(service: "stress").map(\.account)
        let expected = (0..<writers).flatMap { w in (1...perWriter).map { "p\(w)-\($0)" } }
        #expect(Set(accounts) == Set(expected))
        for name in expected {
            #expect(try await store.load(CredentialKey(service: "stress", account: name))?.secret == Array(name.utf8))
        }
    }
}
