#if Hummingbird && Postgres
import Foundation
import Testing
import TokenKitStore
@testable import TokenKitAuth

@Suite("AuthorizingHTTPTransport: bearer header, one refresh and one retry on 401")
struct AuthorizingHTTPTransportTests {
    func get(_ f: Fixture) -> HTTPTransportRequest {
        HTTPTransportRequest(method: "GET", url: f.server.resourceURL, headers: [HTTPHeader(name: "authorization", value: "Bearer stale")])
    }

    @Test("a valid token is sent as Bearer, replacing any Authorization header")
    func bearer() async throws {
        try await Fixture.with { f in
            try await f.seed(expiresIn: 3600)
            let client = AuthorizingHTTPTransport(wrapping: f.transport, provider: try f.provider())
            let response = try await client.send(get(f))
            #expect(response.status == 200)
            #expect(response.body == Array("hello".utf8))
            #expect(await f.state.resourceRequests == 1)
            #expect(await f.state.tokenRequests == 0)
        }
    }

    @Test("401 → one refresh → one retry that succeeds")
    func refreshOnce() async throws {
        try await Fixture.with { f in
            let seeded = try await f.seed(expiresIn: 3600)
            await f.state.revoke(accessToken: seeded.accessToken)
            let client = AuthorizingHTTPTransport(wrapping: f.transport, provider: try f.provider())
            let response = try await client.send(get(f))
            #expect(response.status == 200)
            #expect(await f.state.refreshCount == 1)
            #expect(await f.state.resourceRequests == 2)
        }
    }

    @Test("a burst of 401s for one token causes one refresh; every request succeeds on its retry")
    func burst() async throws {
        try await Fixture.with { f in
            let seeded = try await f.seed(expiresIn: 3600)
            await f.state.revoke(accessToken: seeded.accessToken)
            let client = AuthorizingHTTPTransport(wrapping: f.transport, provider: try f.provider())
            let request = get(f)
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<50 { group.addTask { try await client.send(request).status } }
                var all: [Int] = []
                for try await status in group { all.append(status) }
                return all
            }
            #expect(statuses == Array(repeating: 200, count: 50))
            #expect(await f.state.refreshCount == 1)
            #expect(await f.state.resourceRequests <= 100)
        }
    }

    @Test("a server that always answers 401 gets one retry, never a loop")
    func noLoop() async throws {
        try await Fixture.with { f in
            try await f.seed(expiresIn: 3600)
            await f.state.set(resourceAlwaysRejects: true)
            let client = AuthorizingHTTPTransport(wrapping: f.transport, provider: try f.provider())
            let response = try await client.send(get(f))
            #expect(response.status == 401)
            #expect(await f.state.refreshCount == 1)
            #expect(await f.state.resourceRequests == 2)
        }
    }

    @Test("a 401 for an unrefreshable token surfaces sign-in required")
    func unrefreshable() async throws {
        try await Fixture.with { f in
            try await f.store.save(Credential(tokenSet: TokenSet(accessToken: "opaque")), for: f.key)
            let client = AuthorizingHTTPTransport(wrapping: f.transport, provider: try f.provider())
            let error = await #expect(throws: AuthError.self) { try await client.send(get(f)) }
            #expect(error?.code == .signInRequired)
            #expect(await f.state.resourceRequests == 1)
        }
    }
}
#endif
