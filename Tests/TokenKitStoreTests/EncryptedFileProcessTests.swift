import Foundation
import Testing
import TokenKitStore

/// Real child processes (`tokenkit-store-stress`) writing one store file: killed with SIGKILL
/// mid-write, or writing all at once.
@Suite("Encrypted file: crashes and concurrent processes")
struct EncryptedFileProcessTests {
    static let passphrase = "stress-pass"

    struct Fixture: Sendable {
        let directory: String
        let path: String
        let passphraseFile: String
        let helper: String

        init() throws {
            guard let helper = TestEnvironment.builtBinary(named: "tokenkit-store-stress") else {
                throw HelperMissing()
            }
            directory = try TestEnvironment.makeTemporaryDirectory()
            path = "\(directory)/store/credentials.tkstore"
            passphraseFile = "\(directory)/passphrase"
            self.helper = helper
            guard FileManager.default.createFile(atPath: passphraseFile, contents: Data("\(EncryptedFileProcessTests.passphrase)\n".utf8), attributes: [.posixPermissions: 0o600]) else {
                throw CocoaError(.fileWriteUnknown)
            }
        }

        func launch(_ mode: String, _ name: String, count: Int) throws -> (Process, Pipe) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: helper)
            process.arguments = [mode, path, passphraseFile, "4", name, String(count)]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            return (process, output)
        }

        func store() throws -> EncryptedFileStore {
            EncryptedFileStore(path: path, key: try .passphrase(EncryptedFileProcessTests.passphrase), options: .init(scryptCost: ScryptCost(logN: 4, r: 8, p: 1)))
        }
    }

    struct HelperMissing: Error, CustomStringConvertible {
        var description: String { "tokenkit-store-stress was not built next to the test binary" }
    }

    @Test("SIGKILL at random points while writing, 50 times: the file always opens and holds the old or the new state")
    func killedWriters() async throws {
        let fixture = try Fixture()
        defer { TestEnvironment.remove(fixture.directory) }
        let keeper = try CredentialKey(service: "stress", account: "keeper")
        let target = try CredentialKey(service: "stress", account: "target")
        try await fixture.store().save(Credential(secret: Array("keep-me".utf8)), for: keeper)
        var previous: String? = nil
        var killedMidRun = 0
        for round in 0..<50 {
            let delay = Int.random(in: 5...80)
            let (killed, acknowledged) = try await offPool { () throws -> (Bool, Int) in
                let (process, output) = try fixture.launch("overwrite", "target", count: 1_000_000)
                usleep(useconds_t(delay * 1000))
                kill(process.processIdentifier, SIGKILL)
                let printed = String(decoding: PipeIO.readAll(output.fileHandleForReading), as: UTF8.self)
                process.waitUntilExit()
                return (process.terminationReason == .uncaughtSignal, printed.split(separator: "\n").compactMap { Int($0) }.last ?? 0)
            }
            if killed { killedMidRun += 1 }
            let store = try fixture.store()
            let loaded = try await store.load(target).map { String(decoding: $0.secret, as: UTF8.self) }
            let allowed: Set<String?> = acknowledged == 0
                ? [previous, "value-1"]
                : ["value-\(acknowledged)", "value-\(acknowledged + 1)"]
            #expect(allowed.contains(loaded), "round \(round): acknowledged \(acknowledged), found \(loaded ?? "nothing")")
            #expect(try await store.load(keeper)?.secret == Array("keep-me".utf8), "round \(round)")
            previous = loaded
        }
        #expect(killedMidRun == 50)
        // The next write sweeps temporaries left by killed writers.
        try await fixture.store().save(Credential(secret: [1]), for: try CredentialKey(service: "stress", account: "after"))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: "\(fixture.directory)/store").filter { $0.contains(".tmp-") }
        #expect(leftovers.isEmpty)
    }

    @Test("several processes writing their own accounts at once: every entry is there afterwards")
    func concurrentProcesses() async throws {
        let fixture = try Fixture()
        defer { TestEnvironment.remove(fixture.directory) }
        let writers = 4, perWriter = 15
        let statuses = try await offPool { () throws -> [Int32] in
            let launched = try (0..<writers).map { try fixture.launch("fill", "p\($0)", count: perWriter) }
            return launched.map { process, output in
                _ = PipeIO.readAll(output.fileHandleForReading)
                process.waitUntilExit()
                return process.terminationStatus
            }
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
