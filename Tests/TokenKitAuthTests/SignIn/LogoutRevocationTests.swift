#if Hummingbird && Postgres
import Foundation
import Testing
import TokenKitAuth
import TokenKitTestSupport

/// Sign-out (issue 24 item 7): a refresh token the server will not revoke does not stop the
/// access token from being revoked, and the local login is deleted either way.
@Suite("Sign-out: revocation of both tokens, then deletion")
struct LogoutRevocationTests {
    func signOut(_ f: ServiceFixture, failing hints: Set<String>) async throws -> SignOut.Outcome {
        await f.state.set(failingRevocationHints: hints)
        let configuration = try LoginConfiguration(
            tokenEndpoint: f.server.tokenEndpoint, revocationEndpoint: f.server.revocationEndpoint, clientID: AuthorizationServerState.serviceClientID)
        try await f.store.save(
            Credential(tokenSet: configuration.stored(in: TokenSet(accessToken: "AT-1", refreshToken: "RT-1"))), for: f.key)
        return try await SignOut.run(store: f.store, key: f.key, revoke: true) { configuration throws(AuthError) in
            guard let endpoint = configuration.revocationEndpoint else { return nil }
            return try TokenRevocation(
                endpoint: endpoint, clientID: configuration.clientID,
                clientAuthentication: .clientSecretBasic(secret: AuthorizationServerState.serviceClientSecret), transport: f.transport)
        }
    }

    @Test("the refresh token's revocation fails: the access token is still revoked, the error reported, the login deleted")
    func refreshRevocationFails() async throws {
        try await ServiceFixture.with { f in
            let outcome = try await signOut(f, failing: ["refresh_token"])
            #expect(outcome.deleted)
            #expect(outcome.revoked)
            #expect(outcome.revocationError?.message.contains("did not revoke the refresh token") == true)
            #expect(await f.state.revocations.map(\.hint) == ["access_token"])
            #expect(await f.state.revocations.map(\.token) == ["AT-1"])
            #expect(await f.store.tokenSet(f.key) == nil)
        }
    }

    @Test("both revocations work: refresh token first, then the access token")
    func bothRevoked() async throws {
        try await ServiceFixture.with { f in
            let outcome = try await signOut(f, failing: [])
            #expect(outcome.deleted && outcome.revocationError == nil)
            #expect(await f.state.revocations.map(\.hint) == ["refresh_token", "access_token"])
        }
    }

    @Test("revocation requests ask the transport to stop reading at 64 KiB")
    func responseCap() async throws {
        let transport = ScriptedTransport([.answer(200, ""), .answer(200, "")])
        let revoker = try TokenRevocation(endpoint: try #require(URL(string: "https://id.example/revoke")), clientID: "app", transport: transport)
        try await revoker.revoke(TokenSet(accessToken: "AT-1", refreshToken: "RT-1"))
        #expect(transport.requests.count == 2)
        #expect(transport.requests.allSatisfy { $0.maxResponseBytes == 64 * 1024 })
    }
}
#endif
