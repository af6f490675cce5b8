#if Hummingbird && Postgres
import Foundation
import Testing
import TokenKitStore
@testable import TokenKitAuth

@Suite("AuthProvider with the client credentials grant: no refresh token, re-acquired before expiry")
struct ClientCredentialsProviderTests {
    @Test("nothing stored: the first call acquires and caches the token; a server refresh_token is not kept")
    func acquiresWhenNothingStored() async throws {
        try await ServiceFixture.with { f in
            let provider = f.provider(try f.grant())
            let token = try await provider.validAccessToken()
            #expect(try await provider.validAccessToken() == token)
            #expect(await f.state.issued == 1)
            let stored = try #require(await f.store.tokenSet(f.key))
            #expect(stored.accessToken == token)
            #expect(stored.refreshToken == nil)
            #expect(stored.tokenType == "Bearer")
            // The store keeps expires_at as JSON seconds: equal to the microsecond.
            let expected = f.clock.now.addingTimeInterval(3600)
            #expect(abs(try #require(stored.expiresAt).timeIntervalSince(expected)) < 0.000_01)
        }
    }

    @Test("fifty concurrent callers with nothing stored cause one token request")
    func singleFlightFromEmpty() async throws {
        try await ServiceFixture.with { f in
            let provider = f.provider(try f.grant())
            let tokens = try await Self.tokens(from: provider, callers: 50)
            #expect(tokens.count == 1)
            #expect(await f.state.tokenRequests == 1)
        }
    }

    @Test("within the skew of expiry the token is re-acquired once for all concurrent callers, and saved")
    func reacquiresBeforeExpiry() async throws {
        try await ServiceFixture.with { f in
            await f.state.set(expiresIn: 300)
            let provider = f.provider(try f.grant(), skew: .seconds(60))
            let first = try await provider.validAccessToken()
            f.clock.advance(by: .seconds(200))
            #expect(try await provider.validAccessToken() == first)
            #expect(await f.state.issued == 1)
            f.clock.advance(by: .seconds(50))  // 50 s left < 60 s skew
            let tokens = try await Self.tokens(from: provider, callers: 20)
            #expect(tokens.count == 1)
            #expect(tokens.first != first)
            #expect(await f.state.issued == 2)
            #expect(await f.store.tokenSet(f.key)?.accessToken == tokens.first)
        }
    }

    @Test("a token the resource server rejects is re-acquired once and the request retried once")
    func rejectedTokenReacquired() async throws {
        try await ServiceFixture.with { f in
            let provider = f.provider(try f.grant())
            let api = AuthorizingHTTPTransport(wrapping: f.transport, provider: provider, clock: f.clock)
            #expect(try await api.send(HTTPTransportRequest(url: f.server.resourceURL)).status == 200)
            await f.state.revoke(accessToken: try await provider.validAccessToken())
            #expect(try await api.send(HTTPTransportRequest(url: f.server.resourceURL)).status == 200)
            #expect(await f.state.issued == 2)
            #expect(await f.state.resourceRequests == 3)
        }
    }

    @Test("a refused client (invalid_client) is a rejection, nothing is stored, and the secret is not in the message")
    func refusedClient() async throws {
        try await ServiceFixture.with { f in
            let provider = f.provider(try f.grant(.clientSecretBasic(secret: "wrong-secret-value")))
            let error = await #expect(throws: AuthError.self) { try await provider.validAccessToken() }
            #expect(error?.code == .refreshRejected)
            #expect(error?.oauthError == "invalid_client")
            #expect(error?.message.contains("client credentials grant") == true)
            #expect(error?.message.contains("wrong-secret-value") == false)
            #expect(await f.store.tokenSet(f.key) == nil)
        }
    }

    @Test("a stored refresh-token login is still refreshed, not re-acquired, by the refresh grant")
    func refreshGrantUnchanged() async throws {
        try await ServiceFixture.with { f in
            // The refresh grant is not an acquirer: nothing stored stays sign-in required.
            let grant = try OAuth2RefreshTokenGrant(tokenEndpoint: f.server.tokenEndpoint, clientID: "c", transport: f.transport, clock: f.clock)
            let provider = AuthProvider(store: f.store, key: f.key, refresher: grant, clock: f.clock)
            let error = await #expect(throws: AuthError.self) { try await provider.validAccessToken() }
            #expect(error?.code == .signInRequired)
            #expect(await f.state.tokenRequests == 0)
        }
    }

    @Test("the cache is keyed by endpoint, client, scopes and DPoP key: another configuration never gets the cached token",
          arguments: ["scopes", "dpop", "endpoint", "client"])
    func cacheKeyedByConfiguration(change: String) async throws {
        try await ServiceFixture.with { f in
            let first = try await f.provider(try f.grant(scopes: ["read"])).validAccessToken()
            let other: OAuth2ClientCredentialsGrant
            switch change {
            case "scopes": other = try f.grant(scopes: ["write"])
            case "dpop": other = try f.grant(dpop: true, scopes: ["read"])
            case "endpoint":
                // The same server under another URL (a query it ignores): another token endpoint.
                other = try OAuth2ClientCredentialsGrant(
                    tokenEndpoint: try #require(URL(string: f.server.tokenEndpoint.absoluteString + "?tenant=2")), clientID: AuthorizationServerState.serviceClientID,
                    clientAuthentication: .clientSecretBasic(secret: AuthorizationServerState.serviceClientSecret), scopes: ["read"],
                    transport: f.transport, clock: f.clock)
            default:
                // Another client id the server does not know: it must be asked (and refuse), never served from the cache.
                other = try OAuth2ClientCredentialsGrant(
                    tokenEndpoint: f.server.tokenEndpoint, clientID: "another client",
                    clientAuthentication: .clientSecretBasic(secret: AuthorizationServerState.serviceClientSecret), scopes: ["read"],
                    transport: f.transport, clock: f.clock)
            }
            let provider = f.provider(other)
            if change == "client" {
                let error = await #expect(throws: AuthError.self) { try await provider.validAccessToken() }
                #expect(error?.code == .refreshRejected)
                #expect(await f.state.tokenRequests == 2)
                return
            }
            let second = try await provider.validAccessToken()
            #expect(second != first)
            #expect(await f.state.issued == 2)
            // The same configuration again is served from the cache (the new entry).
            #expect(try await f.provider(other).validAccessToken() == second)
            #expect(await f.state.issued == 2)
        }
    }

    @Test("scope order and repeats do not change the cache key; a set without a record (a login, an older cache) is replaced")
    func cacheKeyDetails() async throws {
        try await ServiceFixture.with { f in
            let first = try await f.provider(try f.grant(scopes: ["read", "write"])).validAccessToken()
            #expect(try await f.provider(try f.grant(scopes: ["write", "read", "read"])).validAccessToken() == first)
            #expect(await f.state.issued == 1)
            let unrecorded = TokenSet(accessToken: "someone-elses", expiresAt: f.clock.now.addingTimeInterval(3600))
            try await f.store.save(Credential(tokenSet: unrecorded), for: f.key)
            let replaced = try await f.provider(try f.grant(scopes: ["read", "write"])).validAccessToken()
            #expect(replaced != "someone-elses")
            #expect(await f.state.issued == 2)
        }
    }

    /// The distinct tokens `callers` concurrent calls of ``AuthProvider/validAccessToken()`` got.
    static func tokens(from provider: AuthProvider, callers: Int) async throws -> Set<String> {
        try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<callers { group.addTask { try await provider.validAccessToken() } }
            var all = Set<String>()
            for try await token in group { all.insert(token) }
            return all
        }
    }
}
#endif
