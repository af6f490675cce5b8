#if Hummingbird && Postgres
import Foundation
import Testing
import TokenKit
import TokenKitStore
import TokenKitTestSupport

/// `tokenkit login --client-key` (private_key_jwt, RFC 7523) and the later `token` and
/// `logout` that reuse the stored method, as real processes against the service test server,
/// which verifies every assertion it receives (signature with the registered public key,
/// `iss` = `sub` = client id, `aud` = the token endpoint, a short life, a never-seen `jti`).
/// django-oauth-toolkit has no private_key_jwt (its token endpoint authenticates clients by
/// secret only), so this flow is tested here.
@Suite("tokenkit login/token/logout with --client-key (private_key_jwt)")
struct PrivateKeyJWTLoginCommandTests {
    typealias Sandbox = TokenCommandProcessTests.Sandbox

    static let key = ["--service", "com.example.pkjwt", "--account", "desk"]

    func keyFile(_ sandbox: Sandbox, _ key: JWTKey, mode: Int = 0o600) throws -> String {
        let path = sandbox.root + "/client-key.pem"
        guard FileManager.default.createFile(atPath: path, contents: Data(try key.privateKeyPEM().utf8), attributes: [.posixPermissions: mode]) else {
            throw DeadlineExceeded(what: "creating the key file")
        }
        return path
    }

    /// A fresh ES256 key registered with `server` as the client's key, written to a key file
    /// with `mode`; returns the file's path.
    func registeredKeyFile(_ server: TestAuthorizationServer, _ sandbox: Sandbox, mode: Int = 0o600) async throws -> String {
        let key = try JWTKey.generate(for: .es256)
        await server.state.set(clientAuth: .privateKeyJWT(try key.publicKey()))
        return try keyFile(sandbox, key, mode: mode)
    }

    func loginArguments(_ server: TestAuthorizationServer, _ sandbox: Sandbox, keyPath: String) -> [String] {
        ["login", "--device"] + Self.key + [
            "--token-endpoint", server.tokenEndpoint.absoluteString,
            "--device-authorization-endpoint", server.deviceEndpoint.absoluteString,
            "--revocation-endpoint", server.revocationEndpoint.absoluteString,
            "--client-id", AuthorizationServerState.serviceClientID, "--client-key", keyPath, "--timeout", "30",
        ] + sandbox.backend + ["--scrypt-log-n", "10"]
    }

    func stored(_ cli: TokenKitCLI, _ sandbox: Sandbox) async throws -> TokenSet {
        let outcome = try await cli.run(["store", "get", "--reveal"] + Self.key + sandbox.backend, environment: .exactly(sandbox.environment))
        #expect(outcome.status == 0, "store get: \(outcome.stderr)")
        return try TokenSet(jsonBytes: Array(outcome.stdoutText.utf8))
    }

    @Test("login --client-key signs every request (device code, poll), stores the method and key path (not the key); token and logout then need no flags")
    func loginTokenLogout() async throws {
        let cli = try TokenKitCLI()
        let sandbox = try Sandbox()
        try await TestAuthorizationServer.with { server in
            let keyPath = try await registeredKeyFile(server, sandbox)

            let login = try await cli.run(loginArguments(server, sandbox, keyPath: keyPath), environment: .exactly(sandbox.environment))
            #expect(login.status == 0, "login: \(login.stderr)")
            #expect(login.stdoutText.isEmpty)
            #expect(login.stderr.contains("WDJB-MJHT"))
            #expect(await server.state.deviceRequests == 1)
            #expect(await server.state.lastForm["grant_type"] == AuthorizationServerState.deviceGrant)

            let tokens = try await stored(cli, sandbox)
            #expect(tokens.metadata["login.auth_method"] == "private_key_jwt")
            #expect(tokens.metadata["login.client_credential_file"] == keyPath)
            let storedJSON = String(decoding: tokens.jsonBytes(), as: UTF8.self)
            #expect(!storedJSON.contains("PRIVATE KEY"))
            let firstAccess = tokens.accessToken

            // No endpoint or client flags: the stored login says where and how.
            let token = try await cli.run(["token"] + Self.key + ["--skew", "2h"] + sandbox.backend, environment: .exactly(sandbox.environment))
            #expect(token.status == 0, "token: \(token.stderr)")
            #expect(await server.state.lastForm["grant_type"] == "refresh_token")
            #expect(token.stdoutText != firstAccess + "\n" && !token.stdoutText.isEmpty)
            let refreshed = try await stored(cli, sandbox)

            let logout = try await cli.run(["logout"] + Self.key + sandbox.backend, environment: .exactly(sandbox.environment))
            #expect(logout.status == 0, "logout: \(logout.stderr)")
            #expect(!logout.stderr.contains("warning"), "logout: \(logout.stderr)")
            let revocations = await server.state.revocations
            #expect(revocations.map { $0.token } == [try #require(refreshed.refreshToken), refreshed.accessToken])

            // Every request carried a fresh assertion the server verified.
            let assertions = await server.state.assertions
            #expect(assertions.count == 5)  // device authorization, one poll, refresh, two revocations
            #expect(Set(try assertions.map { try $0.jwtID() }).count == assertions.count)
            for claims in assertions {
                #expect(try claims.issuer() == AuthorizationServerState.serviceClientID)
                #expect(try claims.subject() == AuthorizationServerState.serviceClientID)
                #expect(try claims.audience() == [server.tokenEndpoint.absoluteString])
                let lifetime = try #require(try claims.expiration()) - (try #require(try claims.issuedAt()))
                #expect(lifetime > 0 && lifetime <= 60)
            }
        }
    }

    @Test("a key file other users can read is refused (exit 2, one error line naming the mode) before any request, at login and when reused")
    func groupReadableKeyRefused() async throws {
        let cli = try TokenKitCLI()
        let sandbox = try Sandbox()
        try await TestAuthorizationServer.with { server in
            let keyPath = try await registeredKeyFile(server, sandbox, mode: 0o640)
            let login = try await cli.run(loginArguments(server, sandbox, keyPath: keyPath), environment: .exactly(sandbox.environment))
            #expect(login.status == 2)
            #expect(login.stderr.hasPrefix("error: ") && login.stderr.contains("mode 0640"))
            #expect(login.stderr.filter { $0 == "\n" }.count == 1)
            #expect(await server.state.deviceRequests == 0)

            // Signed in with a safe file that later became readable by the group: token refuses it too.
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: keyPath)
            let ok = try await cli.run(loginArguments(server, sandbox, keyPath: keyPath), environment: .exactly(sandbox.environment))
            #expect(ok.status == 0, "login: \(ok.stderr)")
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: keyPath)
            let requests = await server.state.tokenRequests
            let token = try await cli.run(["token"] + Self.key + ["--skew", "2h"] + sandbox.backend, environment: .exactly(sandbox.environment))
            #expect(token.status == 2)
            #expect(token.stderr.contains("mode 0644") && token.stdoutText.isEmpty)
            #expect(await server.state.tokenRequests == requests)

            // Logout still deletes the login; the revocation it could not authenticate is a warning.
            let logout = try await cli.run(["logout"] + Self.key + sandbox.backend, environment: .exactly(sandbox.environment))
            #expect(logout.status == 0)
            #expect(logout.stderr.hasPrefix("warning: ") && logout.stderr.contains("mode 0644"))
            #expect(await server.state.revocations.isEmpty)
        }
    }

    @Test("the stored key is sent only to the stored token endpoint: another --token-endpoint gets a public-client request")
    func storedKeyStaysWithItsEndpoint() async throws {
        let cli = try TokenKitCLI()
        let sandbox = try Sandbox()
        try await TestAuthorizationServer.with { server in
            let keyPath = try await registeredKeyFile(server, sandbox)
            let login = try await cli.run(loginArguments(server, sandbox, keyPath: keyPath), environment: .exactly(sandbox.environment))
            #expect(login.status == 0, "login: \(login.stderr)")
            try await TestAuthorizationServer.with { other in
                let outcome = try await cli.run(
                    ["token"] + Self.key + ["--skew", "2h", "--token-endpoint", other.tokenEndpoint.absoluteString] + sandbox.backend,
                    environment: .exactly(sandbox.environment))
                #expect(outcome.status != 0)  // the other server wants client_secret_basic
                #expect(await other.state.tokenRequests == 1)
                #expect(await other.state.lastForm["client_assertion"] == nil)
                #expect(await other.state.lastForm["client_id"] == AuthorizationServerState.serviceClientID)
            }
        }
    }

    @Test("a client-secret login stores the secret file's path: token reuses it (client_secret_post kept); a secret from stdin is not stored, so token asks for it (exit 64)")
    func secretFileLogin() async throws {
        let cli = try TokenKitCLI()
        let sandbox = try Sandbox()
        try await TestAuthorizationServer.with { server in
            await server.state.set(clientAuth: .post)
            let secretPath = sandbox.root + "/client-secret"
            #expect(FileManager.default.createFile(
                atPath: secretPath, contents: Data((AuthorizationServerState.serviceClientSecret + "\n").utf8), attributes: [.posixPermissions: 0o600]))
            var arguments = loginArguments(server, sandbox, keyPath: "unused")
            let keyFlag = try #require(arguments.firstIndex(of: "--client-key"))
            arguments.replaceSubrange(keyFlag...(keyFlag + 1), with: ["--client-secret-file", secretPath, "--client-auth", "post"])
            let login = try await cli.run(arguments, environment: .exactly(sandbox.environment))
            #expect(login.status == 0, "login: \(login.stderr)")
            let tokens = try await stored(cli, sandbox)
            #expect(tokens.metadata["login.auth_method"] == "client_secret_post")
            #expect(tokens.metadata["login.client_credential_file"] == secretPath)
            #expect(!String(decoding: tokens.jsonBytes(), as: UTF8.self).contains(AuthorizationServerState.serviceClientSecret))

            let token = try await cli.run(["token"] + Self.key + ["--skew", "2h"] + sandbox.backend, environment: .exactly(sandbox.environment))
            #expect(token.status == 0, "token: \(token.stderr)")
            #expect(await server.state.lastForm["grant_type"] == "refresh_token")
            #expect(await server.state.lastForm["client_secret"] == AuthorizationServerState.serviceClientSecret)

            // The same login with the secret on stdin: nothing to read it from later.
            var fromStdin = arguments
            let secretFlag = try #require(fromStdin.firstIndex(of: secretPath))
            fromStdin[secretFlag] = "-"
            let again = try await cli.run(fromStdin, stdin: AuthorizationServerState.serviceClientSecret + "\n", environment: .exactly(sandbox.environment))
            #expect(again.status == 0, "login: \(again.stderr)")
            #expect(try await stored(cli, sandbox).metadata["login.client_credential_file"] == nil)
            let requests = await server.state.tokenRequests
            let refused = try await cli.run(["token"] + Self.key + ["--skew", "2h"] + sandbox.backend, environment: .exactly(sandbox.environment))
            #expect(refused.status == 64)
            #expect(refused.stderr == "error: the stored login authenticates with client_secret_post: give --client-secret-file\n")
            #expect(await server.state.tokenRequests == requests)
        }
    }
}
#endif
