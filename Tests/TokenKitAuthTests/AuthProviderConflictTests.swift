#if Hummingbird && Postgres
import Foundation
import Testing
import TokenKitStore
@testable import TokenKitAuth
import TokenKitTestSupport

/// What happens when the store moves under a refresh in flight: another sign-in replaced the
/// credential (``AuthError/Code/conflict``), or the store cannot be written (``AuthError/Code/store``).
@Suite("AuthProvider: conflicts and save failures")
struct AuthProviderConflictTests {
    @Test("a credential replaced during the refresh by an unusable one: conflict, and the replacement is kept")
    func conflict() async throws {
        try await Fixture.with { f in
            try await f.seed(expiresIn: -5)
            let provider = try f.provider()
            await f.state.closeGate()
            let caller = Task { () -> AuthError? in
                do { _ = try await provider.validAccessToken() } catch let error as AuthError { return error } catch { return nil }
                return nil
            }
            try await waitUntil("the refresh reached the server") { await f.state.tokenRequests == 1 }
            // Another process signs in meanwhile, with a set that is itself already expired.
            let other = TokenSet(accessToken: "other-process", refreshToken: "other-rt", tokenType: "Bearer",
                                 expiresAt: f.clock.now.addingTimeInterval(-1))
            try await f.store.save(Credential(tokenSet: other), for: f.key)
            await f.state.openGate()
            let error = await caller.value
            #expect(error?.code == .conflict)
            #expect(error?.message == "the stored credential changed while refreshing; the refreshed token set was not saved")
            #expect(await f.store.tokenSet(f.key) == other)
            #expect(await f.state.refreshCount == 1)
        }
    }

    @Test("a credential replaced during the refresh by a usable one: that one is returned, the refreshed set dropped")
    func replacedByUsable() async throws {
        try await Fixture.with { f in
            try await f.seed(expiresIn: -5)
            let provider = try f.provider()
            await f.state.closeGate()
            let caller = Task { try await provider.validAccessToken() }
            try await waitUntil("the refresh reached the server") { await f.state.tokenRequests == 1 }
            let other = TokenSet(accessToken: "fresh-elsewhere", refreshToken: "rt2", tokenType: "Bearer",
                                 expiresAt: f.clock.now.addingTimeInterval(3600))
            try await f.store.save(Credential(tokenSet: other), for: f.key)
            await f.state.openGate()
            #expect(try await caller.value == "fresh-elsewhere")
            #expect(await f.store.tokenSet(f.key) == other)
        }
    }

    @Test("a store that fails when the refreshed set is saved: a store error naming the cause, no token in it")
    func saveFailure() async throws {
        try await Fixture.with { f in
            let directory = try PrivateTemporaryDirectory(prefix: "tokenkit-save-failure")
            defer { withExtendedLifetime(directory) {} }
            let path = directory.file("c.tkstore")
            let store = EncryptedFileStore(path: path, key: try .passphrase("pw"), options: .init(scryptCost: ScryptCost(logN: 4, r: 8, p: 1)))
            let seeded = await f.state.signIn(expiresAt: f.clock.now.addingTimeInterval(-5))
            try await store.save(Credential(tokenSet: seeded), for: f.key)
            let provider = AuthProvider(store: store, key: f.key, refresher: try f.grant(), clock: f.clock)
            await f.state.closeGate()
            let caller = Task { () -> AuthError? in
                do { _ = try await provider.validAccessToken() } catch let error as AuthError { return error } catch { return nil }
                return nil
            }
            try await waitUntil("the refresh reached the server") { await f.state.tokenRequests == 1 }
            // The file is damaged while the request is out: the compare-and-swap cannot read it.
            var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            bytes[bytes.count - 1] ^= 0x01
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            chmod(path, 0o600)
            await f.state.openGate()
            let error = await caller.value
            #expect(error?.code == .store)
            #expect(error?.message.hasPrefix("the refreshed token set could not be saved: ") == true, "\(error?.message ?? "")")
            #expect(error?.message.contains("fail authentication") == true)
            #expect(error?.message.contains("at-") == false && error?.message.contains("rt-") == false)
            #expect(await f.state.refreshCount == 1)
        }
    }
}
#endif
