#if Hummingbird && Postgres
import Foundation
import Testing
import TokenKit
import TokenKitAuth
import TokenKitStore
import TokenKitURLSession
import TokenKitTestSupport

@Suite("README service example")
struct ServiceReadmeExampleTests {
    @Test("the README's client credentials example runs as written (DPoP on) against a local server")
    func serviceExample() async throws {
        let lockDirectory = try PrivateTemporaryDirectory(prefix: "tokenkit-readme-svc")
        defer { withExtendedLifetime(lockDirectory) {} }
        try await TestAuthorizationServer.with { server in
            await server.state.set(requireDPoP: true)
            await server.state.set(resourceNonceRequired: true)
            let env = ["XDG_RUNTIME_DIR": lockDirectory.path]
            let secretFromFile = AuthorizationServerState.serviceClientSecret

            // --- README lines (endpoints and client id point at the local server) ---
            let http = URLSessionTransport()
            let grant = try OAuth2ClientCredentialsGrant(
                tokenEndpoint: server.tokenEndpoint,
                clientID: AuthorizationServerState.serviceClientID,
                clientAuthentication: .clientSecretBasic(secret: secretFromFile),
                scopes: ["invoices:read"],
                dpop: true,
                transport: http)
            let auth = AuthProvider(store: MemoryTokenStore(), key: try CredentialKey(service: "com.example.billing", account: "worker"),
                                    refresher: grant, lock: FileRefreshLock(directory: FileRefreshLock.defaultDirectory(environment: env)))
            let api = AuthorizingHTTPTransport(wrapping: http, provider: auth)
            let invoices = try await api.send(HTTPTransportRequest(url: server.resourceURL))
            // --- end of README lines ---

            #expect(invoices.status == 200)
            #expect(await server.state.issued == 1)
            #expect(await server.state.boundKeys.count == 1)
            #expect(await server.state.lastForm["scope"] == "invoices:read")
        }
    }
}
#endif
