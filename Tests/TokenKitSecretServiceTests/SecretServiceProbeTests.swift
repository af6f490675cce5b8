import Foundation
import SecretServiceTestSupport
import Testing
@testable import TokenKitSecretService
import TokenKitStore
import TokenKitTestSupport

/// A missing or unreachable Secret Service is detected fast and named; the default chooser
/// falls back to the file store and says why.
@Suite("Secret Service detection and the default chooser")
struct SecretServiceProbeTests {
    static let deadBus = ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/tokenkit-test-bus"]

    /// Runs the probe's blocking core on a thread of its own and times it there, so the
    /// measurement is the probe's, not the wait for a free thread in a busy test run.
    func timedProbe(busAddress: String?, environment: [String: String] = [:], timeout: Duration = .milliseconds(750)) async -> (SecretServiceStatus, Duration) {
        await withCheckedContinuation { continuation in
            Thread {
                let started = ContinuousClock.now
                let status = SecretServiceProbe.checkBlocking(busAddress: busAddress, environment: environment, timeout: timeout)
                continuation.resume(returning: (status, ContinuousClock.now - started))
            }.start()
        }
    }

    func fallbackStore() throws(TokenStoreError) -> any TokenStore {
        EncryptedFileStore(path: "/nonexistent/never-written.tkstore", key: try .passphrase("unused"))
    }

    @Test("a bus address pointing at no socket is reported unavailable in well under a second")
    func deadSocket() async {
        let (status, elapsed) = await timedProbe(busAddress: nil, environment: Self.deadBus)
        print("probe of a dead bus took \(elapsed)")
        #expect(!status.isAvailable)
        #expect(status.reason.contains("cannot connect to the D-Bus session bus"), "\(status.reason)")
        #expect(elapsed < .seconds(3))
        // The public async entry point gives the same answer.
        #expect(await SecretServiceProbe.check(environment: Self.deadBus) == status)
    }

    @Test("no session bus at all (no address, no XDG_RUNTIME_DIR/bus) is named as such")
    func noBus() async {
        let status = await SecretServiceProbe.check(environment: ["HOME": "/root"])
        #expect(!status.isAvailable)
        #expect(status.reason.contains("DBUS_SESSION_BUS_ADDRESS is not set"))
    }

    @Test("a bus where nothing owns org.freedesktop.secrets is told apart from a dead bus")
    func busWithoutService() async throws {
        let bus = try await PrivateBus()
        defer { bus.stop() }
        let (status, elapsed) = await timedProbe(busAddress: bus.address)
        print("probe of a bus without a Secret Service took \(elapsed)")
        #expect(!status.isAvailable)
        #expect(status.reason.contains("nothing owns org.freedesktop.secrets"), "\(status.reason)")
        #expect(elapsed < .seconds(3))
    }

    @Test("a bus that accepts connections but never answers is reported within the deadline, not after 25 s")
    func silentBus() async throws {
        let bus = try await PrivateBus(answering: false)
        defer { bus.stop() }
        let (status, elapsed) = await timedProbe(busAddress: bus.address, timeout: .milliseconds(750))
        print("probe of a silent bus took \(elapsed)")
        #expect(!status.isAvailable)
        #expect(status.reason.contains("did not answer within"), "\(status.reason)")
        #expect(elapsed < .seconds(3))
    }

    @Test("a store on a dead bus fails fast with no-secret-service and says how to start one")
    func storeOnDeadBus() async throws {
        let directory = try PrivateTemporaryDirectory(prefix: "tokenkit-ss")
        defer { withExtendedLifetime(directory) {} }
        let store = SecretServiceStore(options: .init(lockFilePath: directory.file("lock")), environment: Self.deadBus)
        let started = ContinuousClock.now
        do {
            try await store.save(Credential(secret: Array("DEAD-BUS-SECRET".utf8)), for: CredentialKey(service: "svc", account: "acct"))
            Issue.record("saving on a dead bus succeeded")
        } catch {
            #expect(error.code == .noSecretService)
            #expect(error.message.contains("no Secret Service"))
            #expect(error.message.contains("gnome-keyring-daemon"))
            #expect(!error.message.contains("DEAD-BUS-SECRET"))
        }
        await #expect(throws: TokenStoreError(code: .noSecretService, message: "")) {
            try await store.load(CredentialKey(service: "svc", account: "acct"))
        }
        // End to end through the async API, this includes waiting for a free thread in a busy
        // parallel test run, so the bound only rules out libsecret's own 25 s D-Bus timeout;
        // the probe's own time is pinned above (< 3 s) and the CLI tests time a whole process.
        #expect(ContinuousClock.now - started < .seconds(20))
    }

    @Test("the chooser falls back to the file store on a dead bus, fast, and says why")
    func chooserFallsBack() async throws {
        let started = ContinuousClock.now
        let choice = try await TokenStores.makeDefault(environment: Self.deadBus) { () throws(TokenStoreError) -> any TokenStore in
            try fallbackStore()
        }
        #expect(ContinuousClock.now - started < .seconds(20))  // see storeOnDeadBus
        #expect(choice.store.backendName == "file")
        #expect(choice.reason.hasPrefix("file: cannot connect to the D-Bus session bus"))
    }

    @Test("the chooser's fallback error propagates (e.g. no passphrase), it does not pick a broken store")
    func chooserFallbackError() async {
        await #expect(throws: TokenStoreError(code: .missingPassphrase, message: "")) {
            _ = try await TokenStores.makeDefault(environment: Self.deadBus) { () throws(TokenStoreError) -> any TokenStore in
                throw .missingPassphrase("no passphrase")
            }
        }
    }

    @Test("the chooser picks the Secret Service when one answers, without calling the fallback")
    func chooserPicksSecretService() async throws {
        try await SecretServiceGate.requireLive()
        let choice = try await TokenStores.makeDefault(environment: ProcessInfo.processInfo.environment) { () throws(TokenStoreError) -> any TokenStore in
            Issue.record("the fallback was called although a Secret Service answers")
            return try fallbackStore()
        }
        #expect(choice.store.backendName == "secret-service")
        #expect(choice.reason.contains("is running"))
    }
}
