#if Hummingbird && Postgres
import Foundation
import TokenKit
import TokenKitAuth
import TokenKitStore
import TokenKitURLSession

/// A ``TestAuthorizationServer`` plus the client-side pieces: a counting store, a manual clock the
/// server shares (so assertion and proof times agree), a key and a transport.
struct ServiceFixture: Sendable {
    let server: TestAuthorizationServer
    let clock: ManualClock
    let store = CountingTokenStore()
    let key: CredentialKey
    let transport: any HTTPTransport = URLSessionTransport(timeout: .seconds(60))

    var state: AuthorizationServerState { server.state }

    func grant(_ authentication: ClientAuthentication? = nil, dpop: Bool = false, scopes: [String] = []) throws -> OAuth2ClientCredentialsGrant {
        try OAuth2ClientCredentialsGrant(
            tokenEndpoint: server.tokenEndpoint, clientID: AuthorizationServerState.serviceClientID,
            clientAuthentication: authentication ?? .clientSecretBasic(secret: AuthorizationServerState.serviceClientSecret),
            scopes: scopes, dpop: dpop, transport: transport, clock: clock)
    }

    func provider(_ grant: OAuth2ClientCredentialsGrant, skew: Duration = .seconds(60)) -> AuthProvider {
        AuthProvider(store: store, key: key, refresher: grant, skew: skew, clock: clock)
    }

    static func with<T: Sendable>(_ body: @escaping @Sendable (ServiceFixture) async throws -> T) async throws -> T {
        let clock = ManualClock(Date())
        return try await TestAuthorizationServer.with(clock: clock) { server in
            try await body(ServiceFixture(server: server, clock: clock, key: try CredentialKey(service: "com.example.svc", account: "worker")))
        }
    }
}
#endif
