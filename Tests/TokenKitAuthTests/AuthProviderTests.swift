#if Hummingbird && Postgres
import Foundation
import Testing
import TokenKitStore
@testable import TokenKitAuth
import TokenKitTestSupport

@Suite("AuthProvider: expiry, single flight, rotation")
struct AuthProviderTests {
    @Test("a token outside the skew is returned as stored, without a refresh")
    func freshToken() async throws {
        try await Fixture.with { f in
            let seeded = try await f.seed(expiresIn: 61)
            let provider = try f.provider(skew: .seconds(60))
            #expect(try await provider.validAccessToken() == seeded.accessToken)
            #expect(await f.state.tokenRequests == 0)
            // One second later it is inside the skew: refreshed.
            f.clock.advance(by: .seconds(1))
            let refreshed = try await provider.validAccessToken()
            #expect(refreshed != seeded.accessToken)
            #expect(await f.state.refreshCount == 1)
        }
    }

    @Test("an opaque token with no expiry is used without refreshing")
    func noExpiry() async throws {
        try await Fixture.with { f in
            let seeded = try await f.seed(expiresIn: nil)
            let provider = try f.provider()
            f.clock.advance(by: .seconds(10 * 365 * 86400))
            #expect(try await provider.validAccessToken() == seeded.accessToken)
            #expect(await f.state.tokenRequests == 0)
        }
    }

    @Test("a JWT's exp wins over a later stored expires_at")
    func jwtExpWins() async throws {
        try await Fixture.with { f in
            let seeded = await f.state.signIn(expiresAt: nil)
            var stored = seeded
            stored.accessToken = makeJWT(exp: f.clock.now.addingTimeInterval(-1))
            stored.expiresAt = f.clock.now.addingTimeInterval(86400)
            try await f.store.save(Credential(tokenSet: stored), for: f.key)
            let token = try await f.provider().validAccessToken()
            #expect(token != stored.accessToken)
            #expect(await f.state.refreshCount == 1)
        }
    }

    @Test("1,000 concurrent callers with an expired token share exactly one refresh and get the same new token")
    func thousandCallers() async throws {
        try await Fixture.with { f in
            let seeded = try await f.seed(expiresIn: -5)
            let provider = try f.provider()
            let tokens = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<1000 { group.addTask { try await provider.validAccessToken() } }
                var all: [String] = []
                for try await token in group { all.append(token) }
                return all
            }
            #expect(tokens.count == 1000)
            #expect(Set(tokens).count == 1)
            #expect(tokens.first != seeded.accessToken)
            #expect(await f.state.refreshCount == 1)
            #expect(await f.state.tokenRequests == 1)
            // Saved before anyone got it: the store holds exactly what the callers received.
            #expect(await f.store.tokenSet(f.key)?.accessToken == tokens.first)
            #expect(await f.store.loads <= 2)
        }
    }

    @Test("a failed refresh reaches every waiter, and the next call tries again")
    func failureFanOut() async throws {
        try await Fixture.with { f in
            try await f.seed(expiresIn: -5)
            let provider = try f.provider()
            await f.state.injectFailures(1)
            await f.state.closeGate()
            let callers = (0..<20).map { _ in Task { try await provider.validAccessToken() } }
            try await waitUntil("20 waiters") { await provider.waiterCount == 20 }
            await f.state.openGate()
            for caller in callers {
                let result = await caller.result
                #expect(throws: AuthError.self) { try result.get() }
                if case .failure(let error as AuthError) = result {
                    #expect(error.code == .refreshRejected)
                    #expect(error.oauthError == "temporarily_unavailable")
                }
            }
            #expect(await f.state.tokenRequests == 1)
            // Not cached: the next call reaches the server and succeeds.
            let token = try await provider.validAccessToken()
            #expect(await f.state.refreshCount == 1)
            #expect(await f.store.tokenSet(f.key)?.accessToken == token)
        }
    }

    @Test("cancelling one waiter does not cancel the refresh for the others")
    func cancelOneWaiter() async throws {
        try await Fixture.with { f in
            try await f.seed(expiresIn: -5)
            let provider = try f.provider()
            await f.state.closeGate()
            let cancelled = Task { try await provider.validAccessToken() }
            let others = (0..<5).map { _ in Task { try await provider.validAccessToken() } }
            try await waitUntil("6 waiters") { await provider.waiterCount == 6 }
            try await waitUntil("refresh reached the server") { await f.state.tokenRequests == 1 }
            cancelled.cancel()
            // The cancelled waiter leaves while the refresh is still held at the gate.
            let cancelledResult = await cancelled.result
            if case .failure(let error as AuthError) = cancelledResult {
                #expect(error.code == .cancelled)
            } else {
                Issue.record("the cancelled waiter did not get AuthError.cancelled")
            }
            #expect(await provider.waiterCount == 5)
            await f.state.openGate()
            var tokens: Set<String> = []
            for other in others { tokens.insert(try await other.value) }
            #expect(tokens.count == 1)
            #expect(await f.state.refreshCount == 1)
            #expect(await f.store.tokenSet(f.key)?.accessToken == tokens.first)
        }
    }

    @Test("repeated failures back off on the injected clock, then recover")
    func backoff() async throws {
        try await Fixture.with { f in
            try await f.seed(expiresIn: -5)
            let provider = try f.provider(backoff: RefreshBackoff(freeFailures: 1, initialDelay: .seconds(10), maximumDelay: .seconds(15)))
            await f.state.injectFailures(3)
            func code() async -> AuthError.Code? {
                do { _ = try await provider.validAccessToken(); return nil } catch { return error.code }
            }
            #expect(await code() == .refreshRejected)  // failure 1: retried at once
            #expect(await code() == .refreshRejected)  // failure 2: backoff 10 s starts
            #expect(await f.state.tokenRequests == 2)
            #expect(await code() == .retryLater)       // no server call during backoff
            f.clock.advance(by: .seconds(9))
            #expect(await code() == .retryLater)
            #expect(await f.state.tokenRequests == 2)
            f.clock.advance(by: .seconds(1))
            #expect(await code() == .refreshRejected)  // failure 3: backoff 15 s (capped)
            #expect(await f.state.tokenRequests == 3)
            f.clock.advance(by: .seconds(14))
            #expect(await code() == .retryLater)
            f.clock.advance(by: .seconds(1))
            #expect(await code() == nil)               // recovered
            #expect(await f.state.tokenRequests == 4)
            #expect(await f.state.refreshCount == 1)
        }
    }

    @Test("a retry-later error names the last failure and the delay")
    func backoffMessage() async throws {
        try await Fixture.with { f in
            try await f.seed(expiresIn: -5)
            let provider = try f.provider(backoff: RefreshBackoff(freeFailures: 0, initialDelay: .seconds(30)))
            await f.state.injectFailures(1)
            _ = try? await provider.validAccessToken()
            let error = await #expect(throws: AuthError.self) { try await provider.validAccessToken() }
            #expect(error?.code == .retryLater)
            #expect(error?.message.contains("temporarily_unavailable") == true)
            #expect(error?.message.contains("30 s") == true)
        }
    }

    @Test("invalid_grant clears the stored credential and every caller gets sign-in required")
    func invalidGrantClearsStore() async throws {
        try await Fixture.with { f in
            let seeded = try await f.seed(expiresIn: 3600)
            let provider = try f.provider()
            let events = await provider.events()
            #expect(try await provider.validAccessToken() == seeded.accessToken)
            // Use up the stored refresh token elsewhere: the stored one is now a reused token.
            _ = try await f.grant().refresh(seeded)
            f.clock.advance(by: .seconds(3600))
            // Eight callers join one refresh, held at the server until all of them wait.
            await f.state.closeGate()
            let callers = (0..<8).map { _ in
                Task { () -> AuthError.Code? in
                    do { _ = try await provider.validAccessToken() } catch let error as AuthError { return error.code } catch { return nil }
                    return nil
                }
            }
            try await waitUntil("eight waiters") { await provider.waiterCount == 8 }
            await f.state.openGate()
            for caller in callers {
                #expect(await caller.value == .signInRequired)
            }
            #expect(await f.state.tokenRequests == 2)
            #expect(try await f.store.load(f.key) == nil)
            #expect(await f.state.reuseDetections == 1)
            // Subscribers learn that the user is signed out (and nothing else happened).
            let first = try await withDeadline("signed-out event", seconds: 30) { () async -> AuthEvent? in
                var iterator = events.makeAsyncIterator()
                return await iterator.next()
            }
            #expect(first?.kind == .signedOut)
            #expect(first?.key == f.key)
            // Nothing stored now: sign-in required again, without contacting the server.
            let requests = await f.state.tokenRequests
            let again = await #expect(throws: AuthError.self) { try await provider.validAccessToken() }
            #expect(again?.code == .signInRequired)
            #expect(await f.state.tokenRequests == requests)
        }
    }

    @Test("successive refreshes persist each rotated refresh token and never reuse one")
    func rotationPersisted() async throws {
        try await Fixture.with { f in
            let seeded = try await f.seed(expiresIn: -5)
            let provider = try f.provider()
            var seen: Set<String> = [seeded.refreshToken ?? ""]
            for _ in 0..<5 {
                _ = try await provider.validAccessToken()
                let stored = try #require(await f.store.tokenSet(f.key)?.refreshToken)
                #expect(!seen.contains(stored))
                seen.insert(stored)
                f.clock.advance(by: .seconds(3600))
            }
            #expect(await f.state.refreshCount == 5)
            #expect(await f.state.reuseDetections == 0)
        }
    }

    @Test("a sign-in that lands during a refresh is not overwritten by the refresh result")
    func casProtectsNewerLogin() async throws {
        try await Fixture.with { f in
            try await f.seed(expiresIn: -5)
            let provider = try f.provider()
            await f.state.closeGate()
            let caller = Task { try await provider.validAccessToken() }
            try await waitUntil("refresh reached the server") { await f.state.tokenRequests == 1 }
            let newer = TokenSet(accessToken: "newer-login", refreshToken: "newer-refresh", expiresAt: f.clock.now.addingTimeInterval(3600))
            try await f.store.save(Credential(tokenSet: newer), for: f.key)
            await f.state.openGate()
            #expect(try await caller.value == "newer-login")
            #expect(await f.store.tokenSet(f.key) == newer)
        }
    }

    @Test("a sign-out that lands during a refresh wins: the refresh result is dropped")
    func signOutDuringRefresh() async throws {
        try await Fixture.with { f in
            try await f.seed(expiresIn: -5)
            let provider = try f.provider()
            await f.state.closeGate()
            let caller = Task { try await provider.validAccessToken() }
            try await waitUntil("refresh reached the server") { await f.state.tokenRequests == 1 }
            try await f.store.delete(f.key)
            await f.state.openGate()
            let result = await caller.result
            if case .failure(let error as AuthError) = result {
                #expect(error.code == .signInRequired)
            } else {
                Issue.record("expected sign-in required, got \(result)")
            }
            #expect(try await f.store.load(f.key) == nil)
        }
    }

    @Test("nothing stored: sign-in required")
    func nothingStored() async throws {
        try await Fixture.with { f in
            let error = await #expect(throws: AuthError.self) { try await f.provider().validAccessToken() }
            #expect(error?.code == .signInRequired)
        }
    }

    @Test("an expired token without a refresh token: sign-in required, credential kept")
    func noRefreshToken() async throws {
        try await Fixture.with { f in
            let expired = TokenSet(accessToken: "a", expiresAt: f.clock.now.addingTimeInterval(-1))
            try await f.store.save(Credential(tokenSet: expired), for: f.key)
            let error = await #expect(throws: AuthError.self) { try await f.provider().validAccessToken() }
            #expect(error?.code == .signInRequired)
            #expect(await f.store.tokenSet(f.key) == expired)
            #expect(await f.state.tokenRequests == 0)
        }
    }
}
#endif
