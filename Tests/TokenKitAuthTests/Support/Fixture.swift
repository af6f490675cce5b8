#if Hummingbird && Postgres
import Foundation
import TokenKitAuth
import TokenKitStore
import TokenKitURLSession

/// A test server plus the client-side pieces an ``AuthProvider`` needs.
struct Fixture: Sendable {
    let server: TestAuthorizationServer
    let store = CountingTokenStore()
    let clock = ManualClock()
    let key: CredentialKey
    let transport: any HTTPTransport

    init(server: TestAuthorizationServer, transport: any HTTPTransport = URLSessionTransport(timeout: .seconds(60))) throws {
        self.server = server
        self.transport = transport
        key = try CredentialKey(service: "com.example.api", account: "alice")
    }

    var state: AuthorizationServerState { server.state }

    func grant(clientSecret: Bool = false) throws -> OAuth2RefreshTokenGrant {
        try OAuth2RefreshTokenGrant(
            tokenEndpoint: server.tokenEndpoint,
            clientID: AuthorizationServerState.nativeClientID,
            clientAuthentication: clientSecret ? .clientSecretBasic(secret: AuthorizationServerState.nativeClientSecret) : .none,
            transport: transport,
            clock: clock)
    }

    func provider(lock: (any RefreshLock)? = nil, backoff: RefreshBackoff = .standard, skew: Duration = .seconds(60)) throws -> AuthProvider {
        AuthProvider(store: store, key: key, refresher: try grant(), skew: skew, clock: clock, lock: lock, backoff: backoff)
    }

    /// Signs in at the server and stores the token set; `expiresIn` relative to the test clock.
    @discardableResult
    func seed(expiresIn seconds: TimeInterval?) async throws -> TokenSet {
        let tokenSet = await state.signIn(expiresAt: seconds.map { clock.now.addingTimeInterval($0) })
        try await store.save(Credential(tokenSet: tokenSet), for: key)
        return tokenSet
    }

    /// Runs `body` with a fixture over a fresh server.
    static func with<T: Sendable>(
        transport: (@Sendable () -> any HTTPTransport)? = nil,
        _ body: @escaping @Sendable (Fixture) async throws -> T
    ) async throws -> T {
        try await TestAuthorizationServer.with { server in
            let fixture = try transport.map { try Fixture(server: server, transport: $0()) } ?? Fixture(server: server)
            return try await body(fixture)
        }
    }
}

extension Fixture {
    /// The transport used when a test does not pick one.
    static func defaultTransport() -> any HTTPTransport { URLSessionTransport(timeout: .seconds(60)) }
}
#endif
