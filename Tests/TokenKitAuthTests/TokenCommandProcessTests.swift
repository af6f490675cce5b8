#if Hummingbird && Postgres
import Foundation
import Testing
import TokenKitStore
import TokenKitTestSupport

/// `tokenkit token` run as real processes over one encrypted-file store and a real token endpoint.
@Suite("tokenkit token across processes")
struct TokenCommandProcessTests {
    static let service = "com.example.api"
    static let account = "alice"

    /// A private directory with a passphrase file, a store path and a runtime dir for the lock.
    struct Sandbox {
        let directory: PrivateTemporaryDirectory
        var root: String { directory.path }
        var storePath: String { root + "/credentials.tkstore" }
        var passphrasePath: String { root + "/passphrase" }
        var environment: [String: String] {
            ["XDG_RUNTIME_DIR": root + "/run", "PATH": "/usr/bin:/bin", "HOME": root]
        }
        var backend: [String] { ["--backend", "file", "--file", storePath, "--passphrase-file", passphrasePath] }

        init() throws {
            directory = try PrivateTemporaryDirectory(prefix: "tokenkit-token")
            try FileManager.default.createDirectory(atPath: directory.file("run"), withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            guard FileManager.default.createFile(
                atPath: passphrasePath, contents: Data("correct horse battery staple\n".utf8), attributes: [.posixPermissions: 0o600])
            else { throw DeadlineExceeded(what: "creating the passphrase file") }
        }
    }

    func key() -> [String] { ["--service", Self.service, "--account", Self.account] }

    func tokenArguments(_ server: TestAuthorizationServer, _ sandbox: Sandbox, skew: String = "60") -> [String] {
        ["token"] + key() + [
            "--token-endpoint", server.tokenEndpoint.absoluteString,
            "--client-id", AuthorizationServerState.nativeClientID, "--skew", skew,
        ] + sandbox.backend
    }

    /// Stores `tokenSet` through `tokenkit store put --token-set` (cheap scrypt for the test).
    func put(_ tokenSet: TokenSet, _ cli: TokenKitCLI, _ sandbox: Sandbox) async throws {
        let json = String(decoding: tokenSet.jsonBytes(), as: UTF8.self)
        let outcome = try await cli.run(
            ["store", "put", "--token-set"] + key() + sandbox.backend + ["--scrypt-log-n", "10"],
            stdin: json, environment: .exactly(sandbox.environment))
        #expect(outcome.status == 0, "store put failed: \(outcome.stderr)")
    }

    @Test("many concurrent processes with an expired token cause exactly one refresh and print the same token")
    func concurrentProcesses() async throws {
        let cli = try TokenKitCLI()
        let sandbox = try Sandbox()
        try await TestAuthorizationServer.with { server in
            let seeded = await server.state.signIn(expiresAt: Date().addingTimeInterval(-30))
            try await put(seeded, cli, sandbox)
            let arguments = tokenArguments(server, sandbox)
            let outcomes = try await withThrowingTaskGroup(of: CLIResult.self) { group in
                for _ in 0..<24 {
                    group.addTask { try await cli.run(arguments, environment: .exactly(sandbox.environment)) }
                }
                var all: [CLIResult] = []
                for try await outcome in group { all.append(outcome) }
                return all
            }
            for outcome in outcomes {
                #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
                #expect(outcome.stderr.isEmpty)
            }
            let printed = Set(outcomes.map(\.stdoutText))
            #expect(printed.count == 1)
            let token = try #require(printed.first)
            #expect(token.hasSuffix("\n"))
            #expect(token != seeded.accessToken + "\n")
            #expect(await server.state.refreshCount == 1)
            #expect(await server.state.reuseDetections == 0)
            // The rotated set was persisted: the stored token is what was printed.
            let stored = try await cli.run(["store", "get", "--reveal"] + key() + sandbox.backend, environment: .exactly(sandbox.environment))
            let storedSet = try TokenSet(jsonBytes: Array(stored.stdoutText.utf8))
            #expect(storedSet.accessToken + "\n" == token)
            #expect(storedSet.refreshToken != seeded.refreshToken)
        }
    }

    @Test("a fresh token is printed without contacting the token endpoint")
    func freshToken() async throws {
        let cli = try TokenKitCLI()
        let sandbox = try Sandbox()
        try await TestAuthorizationServer.with { server in
            let seeded = await server.state.signIn(expiresAt: Date().addingTimeInterval(3600))
            try await put(seeded, cli, sandbox)
            let outcome = try await cli.run(tokenArguments(server, sandbox), environment: .exactly(sandbox.environment))
            #expect(outcome.status == 0)
            #expect(outcome.stdoutText == seeded.accessToken + "\n")
            #expect(await server.state.tokenRequests == 0)
            // Within a skew of two hours the same token is refreshed.
            let refreshed = try await cli.run(tokenArguments(server, sandbox, skew: "2h"), environment: .exactly(sandbox.environment))
            #expect(refreshed.status == 0)
            #expect(refreshed.stdoutText != seeded.accessToken + "\n")
            #expect(await server.state.refreshCount == 1)
        }
    }

    @Test("a rejected refresh token: exit 1, sign-in required on stderr, nothing on stdout, credential removed")
    func invalidGrant() async throws {
        let cli = try TokenKitCLI()
        let sandbox = try Sandbox()
        try await TestAuthorizationServer.with { server in
            let stale = TokenSet(accessToken: "old", refreshToken: "never-issued", expiresAt: Date().addingTimeInterval(-30))
            try await put(stale, cli, sandbox)
            let outcome = try await cli.run(tokenArguments(server, sandbox), environment: .exactly(sandbox.environment))
            #expect(outcome.status == 1)
            #expect(outcome.stdoutText.isEmpty)
            #expect(outcome.stderr.hasPrefix("error: sign-in required"))
            #expect(outcome.stderr.filter { $0 == "\n" }.count == 1)
            #expect(!outcome.stderr.contains("never-issued"))
            let after = try await cli.run(["store", "get"] + key() + sandbox.backend, environment: .exactly(sandbox.environment))
            #expect(after.status == 1, "the credential should be gone: \(after.stdoutText)")
            // Nothing stored now: exit 1 again, without contacting the server.
            let requests = await server.state.tokenRequests
            let again = try await cli.run(tokenArguments(server, sandbox), environment: .exactly(sandbox.environment))
            #expect(again.status == 1)
            #expect(again.stderr.contains("no credential is stored"))
            #expect(await server.state.tokenRequests == requests)
        }
    }

    @Test("usage errors exit 64 with one error line: plain http off loopback, bad skew")
    func usage() async throws {
        let cli = try TokenKitCLI()
        let sandbox = try Sandbox()
        let base = ["token"] + key() + ["--client-id", "c"] + sandbox.backend
        let http = try await cli.run(base + ["--token-endpoint", "http://auth.example.com/token"], environment: .exactly(sandbox.environment))
        #expect(http.status == 64)
        #expect(http.stderr.hasPrefix("error: token endpoint must use https"))
        #expect(http.stdoutText.isEmpty)
        let skew = try await cli.run(base + ["--token-endpoint", "https://auth.example.com/token", "--skew", "2d"], environment: .exactly(sandbox.environment))
        #expect(skew.status == 64)
        #expect(skew.stderr.contains("--skew"))
    }

    @Test("an unreachable token endpoint exits 2 and keeps the credential")
    func unreachable() async throws {
        let cli = try TokenKitCLI()
        let sandbox = try Sandbox()
        try await put(TokenSet(accessToken: "old", refreshToken: "r", expiresAt: Date().addingTimeInterval(-30)), cli, sandbox)
        let outcome = try await cli.run(
            ["token"] + key() + ["--client-id", "c", "--token-endpoint", "http://127.0.0.1:1/token"] + sandbox.backend,
            environment: .exactly(sandbox.environment))
        #expect(outcome.status == 2)
        #expect(outcome.stderr.hasPrefix("error: "))
        #expect(outcome.stdoutText.isEmpty)
        let after = try await cli.run(["store", "get"] + key() + sandbox.backend, environment: .exactly(sandbox.environment))
        #expect(after.status == 0)
    }
}
#endif
