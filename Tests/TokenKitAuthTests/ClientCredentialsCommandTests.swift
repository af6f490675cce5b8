#if Hummingbird && Postgres
import Foundation
import Testing
import TokenKit
import TokenKitStore
import TokenKitTestSupport

/// `tokenkit token --grant client-credentials` run as real processes over one encrypted-file
/// store and the service test server (which verifies secrets, assertions and DPoP proofs).
@Suite("tokenkit token --grant client-credentials across processes")
struct ClientCredentialsCommandTests {
    typealias Sandbox = TokenCommandProcessTests.Sandbox

    static let key = ["--service", "com.example.svc", "--account", "worker"]

    /// Writes `text` to a new 0600 file in the sandbox and returns its path.
    func file(_ sandbox: Sandbox, _ name: String, _ text: String) throws -> String {
        let path = sandbox.root + "/" + name
        guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw DeadlineExceeded(what: "creating \(name)")
        }
        return path
    }

    func arguments(_ server: TestAuthorizationServer, _ sandbox: Sandbox, _ extra: [String]) -> [String] {
        ["token", "--grant", "client-credentials"] + Self.key + [
            "--token-endpoint", server.tokenEndpoint.absoluteString, "--client-id", AuthorizationServerState.serviceClientID,
        ] + extra + sandbox.backend + ["--scrypt-log-n", "10"]
    }

    func stored(_ cli: TokenKitCLI, _ sandbox: Sandbox) async throws -> TokenSet {
        let outcome = try await cli.run(["store", "get", "--reveal"] + Self.key + sandbox.backend, environment: .exactly(sandbox.environment))
        #expect(outcome.status == 0, "store get: \(outcome.stderr)")
        return try TokenSet(jsonBytes: Array(outcome.stdoutText.utf8))
    }

    func runMany(_ cli: TokenKitCLI, _ arguments: [String], _ sandbox: Sandbox, count: Int) async throws -> [CLIResult] {
        try await withThrowingTaskGroup(of: CLIResult.self) { group in
            for _ in 0..<count { group.addTask { try await cli.run(arguments, environment: .exactly(sandbox.environment)) } }
            var all: [CLIResult] = []
            for try await outcome in group { all.append(outcome) }
            return all
        }
    }

    @Test("--dpop and a server that answers with a Bearer token: exit 2 with a clear error, nothing cached")
    func dpopAnsweredWithBearer() async throws {
        let cli = try TokenKitCLI()
        let sandbox = try Sandbox()
        try await TestAuthorizationServer.with { server in
            await server.state.set(ignoresDPoP: true)
            let secret = try file(sandbox, "client-secret", AuthorizationServerState.serviceClientSecret + "\n")
            let outcome = try await cli.run(arguments(server, sandbox, ["--client-secret-file", secret, "--dpop"]), environment: .exactly(sandbox.environment))
            #expect(outcome.status == 2, "\(outcome.stderr)")
            #expect(outcome.stdoutText.isEmpty)
            #expect(outcome.stderr.hasPrefix("error: invalid token endpoint response: token_type \"Bearer\" is not DPoP"), "\(outcome.stderr)")
            let get = try await cli.run(["store", "get"] + Self.key + sandbox.backend, environment: .exactly(sandbox.environment))
            #expect(get.status == 1)
        }
    }

    @Test("another --scope is another cache entry: the token cached for one scope is never printed for another")
    func cacheKeyedByScope() async throws {
        let cli = try TokenKitCLI()
        let sandbox = try Sandbox()
        try await TestAuthorizationServer.with { server in
            let secret = try file(sandbox, "client-secret", AuthorizationServerState.serviceClientSecret + "\n")
            let read = try await cli.run(arguments(server, sandbox, ["--client-secret-file", secret, "--scope", "read"]), environment: .exactly(sandbox.environment))
            #expect(read.status == 0, "\(read.stderr)")
            let write = try await cli.run(arguments(server, sandbox, ["--client-secret-file", secret, "--scope", "write"]), environment: .exactly(sandbox.environment))
            #expect(write.status == 0, "\(write.stderr)")
            #expect(write.stdoutText != read.stdoutText)
            #expect(await server.state.issued == 2)
            let again = try await cli.run(arguments(server, sandbox, ["--client-secret-file", secret, "--scope", "write"]), environment: .exactly(sandbox.environment))
            #expect(again.stdoutText == write.stdoutText)
            #expect(await server.state.issued == 2)
        }
    }

    @Test("concurrent processes with nothing stored acquire once (client_secret_basic), print one token, and cache it")
    func acquireOnceAcrossProcesses() async throws {
        let cli = try TokenKitCLI()
        let sandbox = try Sandbox()
        try await TestAuthorizationServer.with { server in
            await server.state.set(expiresIn: 300)
            let secret = try file(sandbox, "client-secret", AuthorizationServerState.serviceClientSecret + "\n")
            let args = arguments(server, sandbox, ["--client-secret-file", secret])
            let outcomes = try await runMany(cli, args, sandbox, count: 12)
            for outcome in outcomes {
                #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
                #expect(outcome.stderr.isEmpty)
            }
            let printed = Set(outcomes.map(\.stdoutText))
            #expect(printed.count == 1)
            #expect(await server.state.issued == 1)
            let token = try #require(printed.first)
            #expect(try await stored(cli, sandbox).accessToken + "\n" == token)
            #expect(try await stored(cli, sandbox).refreshToken == nil)
            // Cached: no new request while outside the skew...
            let again = try await cli.run(args, environment: .exactly(sandbox.environment))
            #expect(again.stdoutText == token)
            #expect(await server.state.tokenRequests == 1)
            // ...and re-acquired once, for all processes, within it (300 s left < 10 min skew;
            // the new token lives an hour, so the processes that waited find it fresh).
            await server.state.set(expiresIn: 3600)
            let renewed = try await runMany(cli, args + ["--skew", "10m"], sandbox, count: 6)
            #expect(Set(renewed.map(\.stdoutText)).count == 1)
            #expect(renewed.allSatisfy { $0.status == 0 && $0.stdoutText != token })
            #expect(await server.state.issued == 2)
        }
    }

    @Test("client_secret_post with --client-auth post (secret on stdin), and private_key_jwt with --client-key")
    func otherMethods() async throws {
        let cli = try TokenKitCLI()
        let sandbox = try Sandbox()
        try await TestAuthorizationServer.with { server in
            await server.state.set(clientAuth: .post)
            let post = try await cli.run(
                arguments(server, sandbox, ["--client-secret-file", "-", "--client-auth", "post", "--scope", "read"]),
                stdin: AuthorizationServerState.serviceClientSecret + "\n", environment: .exactly(sandbox.environment))
            #expect(post.status == 0, "stderr: \(post.stderr)")
            #expect(await server.state.lastForm["client_secret"] == AuthorizationServerState.serviceClientSecret)
            #expect(await server.state.lastForm["scope"] == "read")

            let key = try JWTKey.generate(for: .es256)
            await server.state.set(clientAuth: .privateKeyJWT(try key.publicKey()))
            let pem = try file(sandbox, "client-key.pem", try key.privateKeyPEM())
            let jwt = try await cli.run(arguments(server, sandbox, ["--client-key", pem, "--skew", "2h"]), environment: .exactly(sandbox.environment))
            #expect(jwt.status == 0)
            #expect(await server.state.lastForm["client_assertion"] != nil)
            #expect(await server.state.issued == 2)
        }
    }

    @Test("--dpop: the printed token is DPoP-bound and its key is kept in the store")
    func dpop() async throws {
        let cli = try TokenKitCLI()
        let sandbox = try Sandbox()
        try await TestAuthorizationServer.with { server in
            await server.state.set(requireDPoP: true)
            await server.state.set(tokenNonceRequired: true)
            let secret = try file(sandbox, "client-secret", AuthorizationServerState.serviceClientSecret)
            let outcome = try await cli.run(arguments(server, sandbox, ["--client-secret-file", secret, "--dpop"]), environment: .exactly(sandbox.environment))
            #expect(outcome.status == 0)
            let tokens = try await stored(cli, sandbox)
            #expect(tokens.tokenType == "DPoP")
            let jwk = try #require(tokens.dpopKey)
            #expect(await server.state.boundKeys == [try JWTKey(jwk: jwk).thumbprint()])
            #expect(!outcome.stdoutText.contains("\"d\""))
        }
    }

    @Test("a wrong secret exits 1 with one error line naming invalid_client, never the secret; nothing is stored")
    func refused() async throws {
        let cli = try TokenKitCLI()
        let sandbox = try Sandbox()
        try await TestAuthorizationServer.with { server in
            let secret = try file(sandbox, "client-secret", "wrong-secret-value-42")
            let outcome = try await cli.run(arguments(server, sandbox, ["--client-secret-file", secret]), environment: .exactly(sandbox.environment))
            #expect(outcome.status == 1)
            #expect(outcome.stdoutText.isEmpty)
            #expect(outcome.stderr.hasPrefix("error: ") && outcome.stderr.contains("invalid_client"))
            #expect(outcome.stderr.filter { $0 == "\n" }.count == 1)
            #expect(!outcome.stderr.contains("wrong-secret-value-42"))
            let after = try await cli.run(["store", "get"] + Self.key + sandbox.backend, environment: .exactly(sandbox.environment))
            #expect(after.status == 1)
        }
    }

    @Test("usage errors exit 64: no secret or key, both, --client-auth without a secret, --dpop on the refresh grant")
    func usage() async throws {
        let cli = try TokenKitCLI()
        let sandbox = try Sandbox()
        let secret = try file(sandbox, "client-secret", "s")
        let base = ["token"] + Self.key + ["--token-endpoint", "https://id.example.com/token", "--client-id", "svc"] + sandbox.backend
        let cases: [([String], String)] = [
            (["--grant", "client-credentials"], "needs --client-secret-file or --client-key"),
            (["--grant", "client-credentials", "--client-secret-file", secret, "--client-key", secret], "not both"),
            (["--grant", "client-credentials", "--client-auth", "post"], "--client-auth needs --client-secret-file"),
            (["--dpop"], "client-credentials only"),
        ]
        for (extra, message) in cases {
            let outcome = try await cli.run(base + extra, environment: .exactly(sandbox.environment))
            #expect(outcome.status == 64, "\(extra): \(outcome.stderr)")
            #expect(outcome.stderr.contains(message), "\(extra): \(outcome.stderr)")
            #expect(outcome.stdoutText.isEmpty)
        }
    }
}
#endif
