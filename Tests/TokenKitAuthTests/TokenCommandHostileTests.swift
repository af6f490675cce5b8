#if Hummingbird && Postgres
import Foundation
import Testing
import TokenKitStore
import TokenKitTestSupport

/// Issue 10 against the `tokenkit` binary: a token endpoint sending control characters, a
/// dribble or a body without end, a squatted lock directory, a strict umask, a loose client
/// secret file and an answer without `expires_in`.
@Suite("tokenkit token against hostile endpoints and environments")
struct TokenCommandHostileTests {
    typealias Sandbox = TokenCommandProcessTests.Sandbox
    let base = TokenCommandProcessTests()

    /// A sandbox holding an expired token set issued by `server`.
    func expiredSandbox(_ server: TestAuthorizationServer, _ cli: TokenKitCLI) async throws -> (Sandbox, TokenSet) {
        let sandbox = try Sandbox()
        let seeded = await server.state.signIn(expiresAt: Date().addingTimeInterval(-30))
        try await base.put(seeded, cli, sandbox)
        return (sandbox, seeded)
    }

    func stored(_ cli: TokenKitCLI, _ sandbox: Sandbox) async throws -> TokenSet {
        let reveal = try await cli.run(["store", "get", "--reveal"] + base.key() + sandbox.backend, environment: .exactly(sandbox.environment))
        return try TokenSet(jsonBytes: Array(reveal.stdoutText.utf8))
    }

    @Test("an access token with CR/LF is refused: exit 2, nothing printed, the old set kept")
    func controlCharactersNeverPrinted() async throws {
        let cli = try TokenKitCLI()
        try await TestAuthorizationServer.with { server in
            let (sandbox, seeded) = try await expiredSandbox(server, cli)
            await server.state.set(mode: .headerInjection)
            let outcome = try await cli.run(base.tokenArguments(server, sandbox), environment: .exactly(sandbox.environment))
            #expect(outcome.status == 2)
            #expect(outcome.stdoutText.isEmpty)
            #expect(outcome.stderr.hasPrefix("error: invalid token endpoint response: \"access_token\" has a character not allowed in a Bearer token"))
            #expect(outcome.stderr.filter { $0 == "\n" }.count == 1)
            #expect(!outcome.stderr.contains("Injected") && !outcome.stderr.contains("\r"))
            #expect(await server.state.refreshCount == 1)
            #expect(try await stored(cli, sandbox).accessToken == seeded.accessToken)
        }
    }

    @Test("a token endpoint dribbling a byte a second: exit 2 at --timeout, and a waiting process does not give up first")
    func slowEndpointDeadline() async throws {
        let cli = try TokenKitCLI()
        try await TestAuthorizationServer.with { server in
            let (sandbox, seeded) = try await expiredSandbox(server, cli)
            await server.state.set(streaming: .drip)
            let arguments = base.tokenArguments(server, sandbox) + ["--timeout", "3"]
            // Two processes: one holds the lock while its request dribbles; the other waits
            // for the lock (up to 3 + 15 s), then makes its own request, which also times out.
            let outcomes = try await withThrowingTaskGroup(of: CLIResult.self) { group in
                for _ in 0..<2 { group.addTask { try await cli.run(arguments, environment: .exactly(sandbox.environment), timeout: .seconds(50)) } }
                var all: [CLIResult] = []
                for try await outcome in group { all.append(outcome) }
                return all
            }
            for outcome in outcomes {
                #expect(outcome.status == 2)
                #expect(outcome.stdoutText.isEmpty)
                #expect(outcome.stderr == "error: request to 127.0.0.1 did not complete within 3 s (total deadline)\n")
            }
            #expect(await server.state.tokenRequests == 2)
            #expect(try await stored(cli, sandbox).accessToken == seeded.accessToken)
        }
    }

    @Test("a body without end: exit 2 at the size cap, having read a bounded amount, peak RSS under 150 MB")
    func endlessBody() async throws {
        let cli = try TokenKitCLI()
        try await TestAuthorizationServer.with { server in
            let (sandbox, seeded) = try await expiredSandbox(server, cli)
            await server.state.set(streaming: .endless)
            let (outcome, peak) = try await cli.runMeasuringPeakRSS(base.tokenArguments(server, sandbox), environment: .exactly(sandbox.environment))
            // Issue 23: a chunked body without end grew the process to 2.3 GB before.
            #expect(peak < 150 * 1024 * 1024, "peak RSS \(peak / 1024 / 1024) MB")
            #expect(outcome.status == 2)
            #expect(outcome.stdoutText.isEmpty)
            #expect(outcome.stderr == "error: response from 127.0.0.1 is larger than 65536 bytes\n")
            // A client that stops at its cap still takes in what arrives before its connection
            // closes: 294 MB once on a loaded 2-core CI machine (libcurl reads until URLSession
            // removes the cancelled transfer). Reading the whole body would be 4 GiB.
            let sent = await server.state.bytesStreamed
            #expect(sent < 1 << 30, "the server wrote \(sent) bytes: the CLI read (nearly) the whole body")
            #expect(try await stored(cli, sandbox).accessToken == seeded.accessToken)
        }
    }

    @Test("a lock directory squatted by another user is named in the error (exit 2)")
    func squattedLockDirectory() async throws {
        // Only root can give a directory to another user; CI runs as root.
        try #require(geteuid() == 0, "needs root to create a directory owned by another uid")
        let cli = try TokenKitCLI()
        try await TestAuthorizationServer.with { server in
            let (sandbox, seeded) = try await expiredSandbox(server, cli)
            let lockDirectory = sandbox.root + "/run/tokenkit"
            try FileManager.default.createDirectory(atPath: lockDirectory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            #expect(chown(lockDirectory, 54_321, 54_321) == 0)
            let outcome = try await cli.run(base.tokenArguments(server, sandbox), environment: .exactly(sandbox.environment))
            #expect(outcome.status == 2)
            #expect(outcome.stdoutText.isEmpty)
            #expect(outcome.stderr.hasPrefix("error: refresh lock: \(lockDirectory) belongs to another user (uid 54321)"), "\(outcome.stderr)")
            #expect(await server.state.tokenRequests == 0)
            #expect(try await stored(cli, sandbox).accessToken == seeded.accessToken)
        }
    }

    @Test("under umask 0277 the lock directory is 0700 and the lock file 0600, and a second run works")
    func strictUmask() async throws {
        let cli = try TokenKitCLI()
        try await TestAuthorizationServer.with { server in
            let (sandbox, _) = try await expiredSandbox(server, cli)
            for skew in ["60", "2h"] {
                let outcome = try await cli.run(
                    base.tokenArguments(server, sandbox, skew: skew), environment: .exactly(sandbox.environment), umask: "0277")
                #expect(outcome.status == 0, "\(outcome.stderr)")
            }
            #expect(await server.state.refreshCount == 2)
            let lockDirectory = sandbox.root + "/run/tokenkit"
            #expect(try mode(lockDirectory) == 0o700)
            let names = try FileManager.default.contentsOfDirectory(atPath: lockDirectory)
            #expect(names.count == 1)
            for name in names { #expect(try mode(lockDirectory + "/" + name) == 0o600, "\(name)") }
            #expect(try mode(sandbox.storePath) == 0o600)
            #expect(try mode(sandbox.storePath + ".lock") == 0o600)
        }
    }

    @Test("a client secret file readable by others is refused, naming the file and its mode")
    func looseClientSecretFile() async throws {
        let cli = try TokenKitCLI()
        try await TestAuthorizationServer.with { server in
            let (sandbox, _) = try await expiredSandbox(server, cli)
            let secretFile = sandbox.root + "/client-secret"
            #expect(FileManager.default.createFile(atPath: secretFile, contents: Data("s3cr:et&=+\n".utf8), attributes: [.posixPermissions: 0o644]))
            let outcome = try await cli.run(
                base.tokenArguments(server, sandbox) + ["--client-secret-file", secretFile], environment: .exactly(sandbox.environment))
            #expect(outcome.status == 2)
            #expect(outcome.stderr == "error: the client secret file \(secretFile) has mode 0644: it must not be readable by other users (run: chmod 600 \(secretFile))\n")
            #expect(await server.state.tokenRequests == 0)
        }
    }

    @Test("an answer without expires_in is used for 5 minutes, then refreshed")
    func missingExpiresIn() async throws {
        let cli = try TokenKitCLI()
        try await TestAuthorizationServer.with { server in
            let (sandbox, _) = try await expiredSandbox(server, cli)
            await server.state.set(expiresIn: nil)
            let before = Date()
            let first = try await cli.run(base.tokenArguments(server, sandbox, skew: "0"), environment: .exactly(sandbox.environment))
            #expect(first.status == 0, "\(first.stderr)")
            let expiry = try #require(try await stored(cli, sandbox).expiresAt)
            #expect(expiry >= before.addingTimeInterval(299) && expiry <= Date().addingTimeInterval(301))
            // Within the 5 minutes the token is reused; with a skew past them it is refreshed.
            let again = try await cli.run(base.tokenArguments(server, sandbox, skew: "0"), environment: .exactly(sandbox.environment))
            #expect(again.stdoutText == first.stdoutText)
            let later = try await cli.run(base.tokenArguments(server, sandbox, skew: "301"), environment: .exactly(sandbox.environment))
            #expect(later.status == 0)
            #expect(later.stdoutText != first.stdoutText)
            #expect(await server.state.refreshCount == 2)
        }
    }

    func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
    }
}
#endif
