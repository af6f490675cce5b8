#if Hummingbird && Postgres
import Foundation
import Testing
import TokenKitStore
@testable import TokenKitAuth
import TokenKitTestSupport

@Suite("AuthProvider events")
struct AuthEventsTests {
    /// The first `count` events of `stream`, bounded in time.
    func take(_ count: Int, from stream: AsyncStream<AuthEvent>) async throws -> [AuthEvent.Kind] {
        try await withDeadline("\(count) events", seconds: 30) {
            var kinds: [AuthEvent.Kind] = []
            for await event in stream {
                kinds.append(event.kind)
                if kinds.count == count { break }
            }
            return kinds
        }
    }

    @Test("every subscriber sees signed in, refreshed and signed out, in order")
    func lifecycle() async throws {
        try await Fixture.with { f in
            let provider = try f.provider()
            let first = await provider.events()
            let second = await provider.events()
            let tokenSet = await f.state.signIn(expiresAt: f.clock.now.addingTimeInterval(3600))
            try await provider.signIn(tokenSet)
            #expect(try await provider.validAccessToken() == tokenSet.accessToken)
            f.clock.advance(by: .seconds(3600))
            _ = try await provider.validAccessToken()
            try await provider.signOut()
            let expected: [AuthEvent.Kind] = [.signedIn, .refreshed, .signedOut]
            #expect(try await take(3, from: first) == expected)
            #expect(try await take(3, from: second) == expected)
            #expect(try await f.store.load(f.key) == nil)
        }
    }

    @Test("a rejected refresh token is reported as signed out")
    func rejectedRefresh() async throws {
        try await Fixture.with { f in
            let provider = try f.provider()
            let events = await provider.events()
            let unknown = TokenSet(accessToken: "a", refreshToken: "never-issued", expiresAt: f.clock.now.addingTimeInterval(3600))
            try await provider.signIn(unknown)
            f.clock.advance(by: .seconds(3600))
            await #expect(throws: AuthError.self) { try await provider.validAccessToken() }
            #expect(try await take(2, from: events) == [.signedIn, .signedOut])
        }
    }

    @Test("a subscriber that stops listening is removed")
    func unsubscribe() async throws {
        try await Fixture.with { f in
            let provider = try f.provider()
            let listener = Task {
                for await _ in await provider.events() {}
            }
            try await waitUntil("subscribed") { await provider.subscriberCount == 1 }
            listener.cancel()
            try await waitUntil("unsubscribed") { await provider.subscriberCount == 0 }
        }
    }

    @Test("the events a provider publishes through a sign-in, a refresh and a sign-out carry no token")
    func noTokens() async throws {
        try await Fixture.with { f in
            let provider = try f.provider()
            let stream = await provider.events()
            let tokenSet = await f.state.signIn(expiresAt: f.clock.now.addingTimeInterval(3600))
            try await provider.signIn(tokenSet)
            f.clock.advance(by: .seconds(3600))
            let refreshed = try await provider.validAccessToken()
            let rotated = try #require(await f.store.tokenSet(f.key))
            try await provider.signOut()
            let events = try await withDeadline("3 events", seconds: 30) { () async -> [AuthEvent] in
                var all: [AuthEvent] = []
                for await event in stream {
                    all.append(event)
                    if all.count == 3 { break }
                }
                return all
            }
            #expect(events.map(\.kind) == [.signedIn, .refreshed, .signedOut])
            let secrets = [tokenSet.accessToken, tokenSet.refreshToken ?? "", refreshed, rotated.refreshToken ?? ""]
            #expect(secrets.allSatisfy { !$0.isEmpty })
            for event in events {
                for text in ["\(event)", String(reflecting: event), "\(event.kind) \(event.key) \(String(describing: event.expiresAt))"] {
                    for secret in secrets { #expect(!text.contains(secret), "\(event.kind) shows a token") }
                }
            }
            #expect(events[0].description == "signed-in com.example.api/alice")
            #expect(events[1].expiresAt == f.clock.now.addingTimeInterval(3600))
        }
    }
}
#endif
