#if Hummingbird && Postgres
import AsyncHTTPClient
import Foundation
import Testing
import TokenKitAsyncHTTPClient
import TokenKitStore
import TokenKitURLSession
@testable import TokenKitAuth

/// The adapters under test.
enum AdapterKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case urlSession
    case asyncHTTPClient

    var testDescription: String { rawValue }

    /// Runs `body` with a transport of this kind (own cap `maxResponseBytes`), shutting its
    /// client down afterwards.
    func with<T: Sendable>(
        maxResponseBytes: Int = 100_000, _ body: @escaping @Sendable (any HTTPTransport) async throws -> T
    ) async throws -> T {
        switch self {
        case .urlSession:
            return try await body(URLSessionTransport(timeout: .seconds(20), maxResponseBytes: maxResponseBytes))
        case .asyncHTTPClient:
            let transport = AsyncHTTPClientTransport(timeout: .seconds(20), maxResponseBytes: maxResponseBytes)
            do {
                let result = try await body(transport)
                try await transport.shutdown()
                return result
            } catch {
                try? await transport.shutdown()
                throw error
            }
        }
    }
}

@Suite("Transport adapters against the same server")
struct TransportAdapterTests {
    @Test("refresh, 401 recovery and authorized requests work through each adapter", arguments: AdapterKind.allCases)
    func endToEnd(kind: AdapterKind) async throws {
        try await kind.with { transport in
            try await Fixture.with(transport: { transport }) { f in
                let seeded = try await f.seed(expiresIn: -5)
                let provider = try f.provider()
                let client = AuthorizingHTTPTransport(wrapping: transport, provider: provider)
                let response = try await client.send(HTTPTransportRequest(url: f.server.resourceURL))
                #expect(response.status == 200)
                #expect(response.body == Array("hello".utf8))
                #expect(await f.state.refreshCount == 1)
                let current = try await provider.validAccessToken()
                #expect(current != seeded.accessToken)
                await f.state.revoke(accessToken: current)
                #expect(try await client.send(HTTPTransportRequest(url: f.server.resourceURL)).status == 200)
                #expect(await f.state.refreshCount == 2)
            }
        }
    }

    @Test("redirects are not followed: the 3xx is returned", arguments: AdapterKind.allCases)
    func noRedirects(kind: AdapterKind) async throws {
        try await kind.with { transport in
            try await TestAuthorizationServer.with { server in
                let response = try await transport.send(HTTPTransportRequest(url: server.baseURL.appendingPathComponent("redirect")))
                #expect(response.status == 302)
                #expect(response.headers.first(named: "location") == "/resource")
                #expect(await server.state.resourceRequests == 0)
            }
        }
    }

    @Test("a redirecting token endpoint is a clear error and the credential is kept", arguments: AdapterKind.allCases)
    func redirectingTokenEndpoint(kind: AdapterKind) async throws {
        try await kind.with { transport in
            try await Fixture.with(transport: { transport }) { f in
                let seeded = try await f.seed(expiresIn: -5)
                let grant = try OAuth2RefreshTokenGrant(
                    tokenEndpoint: f.server.baseURL.appendingPathComponent("token-redirect"),
                    clientID: AuthorizationServerState.nativeClientID, transport: transport, clock: f.clock)
                let error = await #expect(throws: AuthError.self) { try await grant.refresh(seeded) }
                #expect(error?.code == .invalidResponse)
                #expect(error?.message.contains("307") == true)
                #expect(await f.state.tokenRequests == 0)
            }
        }
    }

    @Test("oversized response bodies are refused by the adapter, at the smaller of its cap and the request's", arguments: AdapterKind.allCases)
    func oversized(kind: AdapterKind) async throws {
        try await kind.with { transport in
            try await Fixture.with(transport: { transport }) { f in
                await f.state.set(mode: .huge)
                let seeded = try await f.seed(expiresIn: -5)
                let error = await #expect(throws: AuthError.self) { try await f.grant().refresh(seeded) }
                #expect(error?.code == .network)
                #expect(error?.message.contains("larger than 65536 bytes") == true, "\(error?.message ?? "")")
                let direct = await #expect(throws: AuthError.self) {
                    try await transport.send(HTTPTransportRequest(method: "POST", url: f.server.tokenEndpoint))
                }
                #expect(direct?.message.contains("larger than 100000 bytes") == true, "\(direct?.message ?? "")")
            }
        }
    }
}
#endif
