#if Hummingbird && Postgres
import Foundation
import Testing
import TokenKitStore
@testable import TokenKitAuth

@Suite("OAuth 2.0 refresh_token grant against a real token endpoint")
struct OAuth2RefreshTokenGrantTests {
    @Test("public client: form body carries grant_type, refresh_token and client_id, no Authorization")
    func publicClient() async throws {
        try await Fixture.with { f in
            let seeded = try await f.seed(expiresIn: -10)
            let fresh = try await f.grant().refresh(seeded)
            #expect(fresh.accessToken != seeded.accessToken)
            #expect(fresh.refreshToken != seeded.refreshToken)
            #expect(fresh.expiresAt == f.clock.now.addingTimeInterval(3600))
            let form = await f.state.lastForm
            #expect(form == ["grant_type": "refresh_token", "refresh_token": seeded.refreshToken ?? "", "client_id": AuthorizationServerState.nativeClientID])
            #expect(await f.state.lastAuthorization == nil)
        }
    }

    @Test("confidential client: client_secret_basic with form-urlencoded id and secret")
    func confidentialClient() async throws {
        try await Fixture.with { f in
            await f.state.set(requireClientSecret: true)
            let seeded = try await f.seed(expiresIn: -10)
            _ = try await f.grant(clientSecret: true).refresh(seeded)
            #expect(await f.state.lastAuthorization == AuthorizationServerState.nativeExpectedBasic)
            #expect(await f.state.lastForm["client_id"] == nil)
            #expect(await f.state.refreshCount == 1)
        }
    }

    @Test("a wrong client secret is a distinct rejection, not sign-in required")
    func invalidClient() async throws {
        try await Fixture.with { f in
            await f.state.set(requireClientSecret: true)
            let seeded = try await f.seed(expiresIn: -10)
            let grant = try OAuth2RefreshTokenGrant(
                tokenEndpoint: f.server.tokenEndpoint, clientID: AuthorizationServerState.nativeClientID,
                clientAuthentication: .clientSecretBasic(secret: "wrong"), transport: f.transport, clock: f.clock)
            let error = await #expect(throws: AuthError.self) { try await grant.refresh(seeded) }
            #expect(error?.code == .refreshRejected)
            #expect(error?.oauthError == "invalid_client")
            #expect(error?.message.contains("wrong") == false)
        }
    }

    @Test("reusing a rotated refresh token is invalid_grant: sign-in required")
    func reuse() async throws {
        try await Fixture.with { f in
            let seeded = try await f.seed(expiresIn: -10)
            let grant = try f.grant()
            _ = try await grant.refresh(seeded)
            let error = await #expect(throws: AuthError.self) { try await grant.refresh(seeded) }
            #expect(error?.code == .signInRequired)
            #expect(await f.state.reuseDetections == 1)
            #expect(error?.message.contains(seeded.refreshToken ?? "-") == false)
        }
    }

    @Test("a response without refresh_token keeps the old one, which still works")
    func keepsRefreshToken() async throws {
        try await Fixture.with { f in
            await f.state.set(mode: .noRefreshTokenInResponse)
            let seeded = try await f.seed(expiresIn: -10)
            let grant = try f.grant()
            let first = try await grant.refresh(seeded)
            #expect(first.refreshToken == seeded.refreshToken)
            let second = try await grant.refresh(first)
            #expect(second.accessToken != first.accessToken)
            #expect(await f.state.refreshCount == 2)
        }
    }

    @Test("non-JSON, oversized, wrong token_type and missing access_token answers are refused with their reason", arguments: [
        (AuthorizationServerState.TokenMode.html, "not a JSON object"),
        (.huge, "larger than"),
        (.wrongTokenType, "not Bearer"),
        (.missingAccessToken, "access_token"),
    ])
    func badAnswers(mode: AuthorizationServerState.TokenMode, reason: String) async throws {
        try await Fixture.with { f in
            await f.state.set(mode: mode)
            let seeded = try await f.seed(expiresIn: -10)
            let error = await #expect(throws: AuthError.self) { try await f.grant().refresh(seeded) }
            // An oversized body is now stopped by the transport while reading (the grant passes
            // its 64 KiB cap down), so it is a network failure rather than a parsed answer.
            #expect(error?.code == (mode == .huge ? .network : .invalidResponse))
            #expect(error?.message.contains(reason) == true, "\(error?.message ?? "")")
        }
    }

    @Test("no stored refresh token: sign-in required without contacting the server")
    func noRefreshToken() async throws {
        try await Fixture.with { f in
            let error = await #expect(throws: AuthError.self) { try await f.grant().refresh(TokenSet(accessToken: "a")) }
            #expect(error?.code == .signInRequired)
            #expect(await f.state.tokenRequests == 0)
        }
    }

    @Test("an unreachable endpoint is a network error")
    func unreachable() async throws {
        // Port 1 on loopback: nothing listens there.
        let grant = try OAuth2RefreshTokenGrant(
            tokenEndpoint: try #require(URL(string: "http://127.0.0.1:1/token")), clientID: "c",
            transport: Fixture.defaultTransport())
        let error = await #expect(throws: AuthError.self) { try await grant.refresh(TokenSet(accessToken: "a", refreshToken: "r")) }
        #expect(error?.code == .network)
    }

    @Test("an http endpoint off loopback is refused at init")
    func insecureEndpoint() throws {
        #expect(throws: AuthError.self) {
            try OAuth2RefreshTokenGrant(tokenEndpoint: URL(string: "http://auth.example.com/token")!, clientID: "c", transport: Fixture.defaultTransport())
        }
    }
}
#endif
