#if Hummingbird && Postgres
import Foundation
import Testing
import TokenKit
import TokenKitStore
@testable import TokenKitAuth

@Suite("Client authentication at the token endpoint: basic, post, private_key_jwt")
struct ClientAuthenticationTests {
    @Test("client_secret_basic: form-urlencoded id and secret in HTTP Basic, nothing secret in the form")
    func basic() async throws {
        try await ServiceFixture.with { f in
            let tokens = try await f.grant().acquire(replacing: nil)
            #expect(tokens.accessToken.hasPrefix("svc-at-"))
            #expect(await f.state.lastAuthorization == AuthorizationServerState.serviceExpectedBasic)
            #expect(await f.state.lastForm == ["grant_type": "client_credentials"])
        }
    }

    @Test("client_secret_post: client_id and client_secret in the form, no Authorization header")
    func post() async throws {
        try await ServiceFixture.with { f in
            await f.state.set(clientAuth: .post)
            _ = try await f.grant(.clientSecretPost(secret: AuthorizationServerState.serviceClientSecret), scopes: ["read", "write"]).acquire(replacing: nil)
            #expect(await f.state.lastAuthorization == nil)
            #expect(await f.state.lastForm == [
                "grant_type": "client_credentials", "scope": "read write",
                "client_id": AuthorizationServerState.serviceClientID, "client_secret": AuthorizationServerState.serviceClientSecret,
            ])
        }
    }

    @Test("a server expecting post refuses basic, and a wrong secret is invalid_client without the secret in the message")
    func wrongMethodOrSecret() async throws {
        try await ServiceFixture.with { f in
            await f.state.set(clientAuth: .post)
            let basic = await #expect(throws: AuthError.self) { try await f.grant().acquire(replacing: nil) }
            #expect(basic?.code == .refreshRejected)
            #expect(basic?.oauthError == "invalid_client")
            let wrong = await #expect(throws: AuthError.self) {
                try await f.grant(.clientSecretPost(secret: "not-the-secret-x")).acquire(replacing: nil)
            }
            #expect(wrong?.oauthError == "invalid_client")
            #expect(wrong?.message.contains("not-the-secret-x") == false)
            #expect(await f.state.issued == 0)
        }
    }

    @Test("private_key_jwt: the server verifies each assertion with the registered key; every request gets a new jti")
    func privateKeyJWT() async throws {
        try await ServiceFixture.with { f in
            let key = try JWTKey.generate(for: .es256, keyID: "client-key-1")
            await f.state.set(clientAuth: .privateKeyJWT(try key.publicKey()))
            let grant = try f.grant(try .privateKeyJWT(key: key))
            _ = try await grant.acquire(replacing: nil)
            let form = await f.state.lastForm
            _ = try await grant.acquire(replacing: nil)
            #expect(await f.state.issued == 2)
            #expect(await f.state.lastAuthorization == nil)
            #expect(form["client_secret"] == nil)
            #expect(form["client_assertion_type"] == "urn:ietf:params:oauth:client-assertion-type:jwt-bearer")
            let assertion = try UnverifiedJWT(parsing: try #require(form["client_assertion"]))
            #expect(try assertion.claims.issuer() == AuthorizationServerState.serviceClientID)
            #expect(try assertion.claims.subject() == AuthorizationServerState.serviceClientID)
            #expect(try assertion.claims.audience() == [f.server.tokenEndpoint.absoluteString])
            #expect(assertion.header.keyID == "client-key-1")
            let iat = try #require(try assertion.claims.issuedAt())
            #expect(try assertion.claims.expiration() == iat + 60)
            #expect(iat == f.clock.now.timeIntervalSince1970.rounded(.down))
            #expect(try assertion.claims.jwtID()?.count ?? 0 >= 22)
        }
    }

    @Test("private_key_jwt with RS256 works; an assertion signed by another key is invalid_client")
    func privateKeyJWTWrongKey() async throws {
        try await ServiceFixture.with { f in
            let registered = try JWTKey.generate(for: .rs256)
            await f.state.set(clientAuth: .privateKeyJWT(try registered.publicKey()))
            _ = try await f.grant(try .privateKeyJWT(key: registered, algorithm: .rs256)).acquire(replacing: nil)
            let other = try JWTKey.generate(for: .rs256)
            let error = await #expect(throws: AuthError.self) {
                try await f.grant(try .privateKeyJWT(key: other, algorithm: .rs256)).acquire(replacing: nil)
            }
            #expect(error?.oauthError == "invalid_client")
            #expect(await f.state.lastRefusal?.hasPrefix("assertion:") == true)
            #expect(await f.state.issued == 1)
        }
    }

    @Test("an expired assertion (clock behind the server) is refused by the server")
    func expiredAssertion() async throws {
        try await ServiceFixture.with { f in
            let key = try JWTKey.generate(for: .es256)
            await f.state.set(clientAuth: .privateKeyJWT(try key.publicKey()))
            let lagging = ManualClock(f.clock.now.addingTimeInterval(-120))
            let grant = try OAuth2ClientCredentialsGrant(
                tokenEndpoint: f.server.tokenEndpoint, clientID: AuthorizationServerState.serviceClientID,
                clientAuthentication: try .privateKeyJWT(key: key), transport: f.transport, clock: lagging)
            let error = await #expect(throws: AuthError.self) { try await grant.acquire(replacing: nil) }
            #expect(error?.oauthError == "invalid_client")
            #expect(await f.state.lastRefusal?.contains("expired") == true)
        }
    }

    @Test("private_key_jwt refuses shared secrets, public keys and lifetimes outside 1...300 s")
    func privateKeyJWTConfiguration() throws {
        let hmac = try JWTKey.hmac(secret: Array(repeating: 7, count: 32))
        #expect(throws: AuthError.invalidConfiguration("")) { try ClientAuthentication.privateKeyJWT(key: hmac) }
        let key = try JWTKey.generate(for: .es256)
        #expect(throws: AuthError.invalidConfiguration("")) { try ClientAuthentication.privateKeyJWT(key: try key.publicKey()) }
        #expect(throws: AuthError.invalidConfiguration("")) { try ClientAuthentication.privateKeyJWT(key: key, lifetimeSeconds: 0) }
        #expect(throws: AuthError.invalidConfiguration("")) { try ClientAuthentication.privateKeyJWT(key: key, lifetimeSeconds: 301) }
        #expect(throws: AuthError.invalidConfiguration("")) { try ClientAuthentication.privateKeyJWT(key: key, algorithm: .rs256) }
        #expect(try ClientAuthentication.privateKeyJWT(key: key).description == "private_key_jwt")
        #expect(ClientAuthentication.clientSecretPost(secret: "SECRET").description == "client_secret_post")
    }

    @Test("the client credentials grant refuses a public client and malformed scopes")
    func grantConfiguration() throws {
        let endpoint = try #require(URL(string: "https://id.example.com/token"))
        let transport = URLSessionTransportForConfig()
        #expect(throws: AuthError.invalidConfiguration("")) {
            try OAuth2ClientCredentialsGrant(tokenEndpoint: endpoint, clientID: "svc", clientAuthentication: .none, transport: transport)
        }
        for scope in ["", "a b", "quote\"d", "back\\slash", "é"] {
            #expect(throws: AuthError.invalidConfiguration("")) {
                try OAuth2ClientCredentialsGrant(
                    tokenEndpoint: endpoint, clientID: "svc", clientAuthentication: .clientSecretBasic(secret: "s"),
                    scopes: [scope], transport: transport)
            }
        }
        #expect(throws: AuthError.invalidConfiguration("")) {
            try OAuth2ClientCredentialsGrant(
                tokenEndpoint: try #require(URL(string: "http://id.example.com/token")), clientID: "svc",
                clientAuthentication: .clientSecretBasic(secret: "s"), transport: transport)
        }
    }
}

/// A transport for configuration checks that never sends anything.
struct URLSessionTransportForConfig: HTTPTransport {
    func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse {
        throw AuthError.network("not used")
    }
}
#endif
