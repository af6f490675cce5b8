#if Hummingbird && Postgres
import Foundation
import Testing
import TokenKitStore
@testable import TokenKitAuth

@Suite("Logs and errors never contain tokens or secrets")
struct LoggingTests {
    @Test("refresh, rotation, 401 recovery and invalid_grant log their steps without any token or secret")
    func noSecretsLogged() async throws {
        try await Fixture.with { f in
            await f.state.set(requireClientSecret: true)
            let capture = LogCapture()
            let grant = try OAuth2RefreshTokenGrant(
                tokenEndpoint: f.server.tokenEndpoint, clientID: AuthorizationServerState.nativeClientID,
                clientAuthentication: .clientSecretBasic(secret: AuthorizationServerState.nativeClientSecret),
                transport: f.transport, clock: f.clock, logger: capture.logger())
            let provider = AuthProvider(store: f.store, key: f.key, refresher: grant, clock: f.clock, logger: capture.logger())
            let client = AuthorizingHTTPTransport(wrapping: f.transport, provider: provider, logger: capture.logger())
            let seeded = try await f.seed(expiresIn: -5)
            var secrets = [seeded.accessToken, seeded.refreshToken ?? "", AuthorizationServerState.nativeClientSecret]
            // Refresh, then a 401 that forces a second refresh.
            let first = try await provider.validAccessToken()
            secrets.append(first)
            secrets.append(await f.store.tokenSet(f.key)?.refreshToken ?? "")
            await f.state.revoke(accessToken: first)
            #expect(try await client.send(HTTPTransportRequest(url: f.server.resourceURL)).status == 200)
            secrets.append(await f.store.tokenSet(f.key)?.accessToken ?? "")
            secrets.append(await f.store.tokenSet(f.key)?.refreshToken ?? "")
            // A rejected refresh token.
            let stale = TokenSet(accessToken: "stale-access-token-value", refreshToken: "stale-refresh-token-value", expiresAt: f.clock.now)
            secrets += [stale.accessToken, stale.refreshToken ?? ""]
            try await provider.signIn(stale)
            let error = await #expect(throws: AuthError.self) { try await provider.validAccessToken() }
            let lines = capture.all
            #expect(lines.contains { $0.contains("refreshing access token") })
            #expect(lines.contains { $0.contains("refresh token rejected") })
            #expect(lines.contains { $0.contains("401") })
            for secret in secrets where !secret.isEmpty {
                #expect(!lines.contains { $0.contains(secret) }, "a log line contains a secret")
                #expect(error?.message.contains(secret) == false)
            }
            #expect(!lines.contains { $0.contains("Basic ") })
        }
    }

    @Test("descriptions of requests, responses and client authentication hide credentials")
    func descriptions() throws {
        let url = try #require(URL(string: "https://user:pw@api.example.com/v1/items?access_token=SECRET#frag"))
        let request = HTTPTransportRequest(method: "GET", url: url, headers: [HTTPHeader(name: "Authorization", value: "Bearer SECRET")], body: Array("SECRET".utf8))
        #expect(request.description == "GET https://api.example.com/v1/items")
        #expect(HTTPTransportResponse(status: 200, body: Array("SECRET".utf8)).description == "HTTP 200 (6 bytes)")
        #expect(ClientAuthentication.clientSecretBasic(secret: "SECRET").description == "client_secret_basic")
    }
}
#endif
