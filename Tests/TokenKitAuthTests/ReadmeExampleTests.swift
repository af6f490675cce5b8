#if Hummingbird && Postgres
import Foundation
import Testing
import TokenKitAuth
import TokenKitStore
import TokenKitURLSession
import TokenKitTestSupport

@Suite("README example")
struct ReadmeExampleTests {
    @Test("the README's AuthProvider example runs as written against a local server")
    func readmeExample() async throws {
        let lockDirectory = try PrivateTemporaryDirectory(prefix: "tokenkit-readme")
        defer { withExtendedLifetime(lockDirectory) {} }
        try await TestAuthorizationServer.with { server in
            let environment = ["XDG_RUNTIME_DIR": lockDirectory.path]
            // The README opens the default file with the user's passphrase; the test uses a
            // private path and a cheap scrypt cost.
            let store = EncryptedFileStore(
                path: lockDirectory.file("credentials.tkstore"), key: try FileStoreKey.passphrase("correct horse battery staple"),
                options: EncryptedFileStore.Options(scryptCost: ScryptCost(logN: 10, r: 8, p: 1)))
            let signedIn = await server.state.signIn(expiresAt: Date().addingTimeInterval(-1))
            try await store.save(Credential(tokenSet: signedIn), for: CredentialKey(service: "com.example.mail", account: "alice"))

            // --- README lines (endpoints point at the local server) ---
            let http = URLSessionTransport()
            let grant = try OAuth2RefreshTokenGrant(tokenEndpoint: server.tokenEndpoint,
                                                    clientID: AuthorizationServerState.nativeClientID, transport: http)
            let auth = AuthProvider(store: store, key: try CredentialKey(service: "com.example.mail", account: "alice"),
                                    refresher: grant, lock: FileRefreshLock(directory: FileRefreshLock.defaultDirectory(environment: environment)))
            let api = AuthorizingHTTPTransport(wrapping: http, provider: auth)
            let inbox = try await api.send(HTTPTransportRequest(url: server.resourceURL))
            // --- end of README lines ---

            #expect(inbox.status == 200)
            #expect(await server.state.refreshCount == 1)
        }
    }
}
#endif
