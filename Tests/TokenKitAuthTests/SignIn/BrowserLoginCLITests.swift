#if Hummingbird && Postgres
import Foundation
import Testing
import TokenKitStore
import TokenKitTestSupport

/// `tokenkit login` (browser) as a real process against ``TestAuthorizationServer``, with a `$BROWSER`
/// script that records its argv and environment and then behaves as each test needs: a plain
/// browser, a second fetch of the start URL, a forged callback first, slow and idle local
/// clients around it, or a user who never comes back (issue 24 items 2–3).
@Suite("tokenkit login through the browser: start URL, forged callbacks, crowded port, environment")
struct BrowserLoginCLITests {
    typealias Sandbox = TokenCommandProcessTests.Sandbox

    static let passphraseInEnvironment = "env-passphrase-must-not-leak"
    static let databasePasswordInEnvironment = "env-db-password-must-not-leak"

    /// The `$BROWSER` program: records argv and environment, then acts per `$BROWSER_MODE`.
    static let browserScript = #"""
        #!/bin/bash
        exec 2>/dev/null  # never hold the CLI's stderr open after it exits
        rec="$BROWSER_RECORD"
        printf '%s\n' "$@" >"$rec/argv"
        env >"$rec/env"
        url="$1"
        port=$(printf '%s' "$url" | sed -E 's#^http://127\.0\.0\.1:([0-9]+)/.*#\1#')
        drip() { exec 3<>"/dev/tcp/127.0.0.1/$port" || exit; for _ in $(seq 60); do printf G >&3 || exit; sleep 1; done; }
        case "$BROWSER_MODE" in
        follow) curl -s -o /dev/null -L --max-time 30 "$url" ;;
        twice)
            curl -s -o /dev/null -w '%{http_code}' --max-time 30 "$url" >"$rec/first"
            curl -s -o /dev/null -w '%{http_code}' --max-time 30 "$url" >"$rec/second" ;;
        forged)
            curl -s -o /dev/null -w '%{http_code}' --max-time 30 "http://127.0.0.1:$port/callback?code=evil&state=forged" >"$rec/forged"
            curl -s -o /dev/null -L --max-time 30 "$url" ;;
        crowded)
            drip &
            for _ in $(seq 10); do exec {fd}<>"/dev/tcp/127.0.0.1/$port"; done
            curl -s -o /dev/null -L --max-time 30 "$url" ;;
        stall) drip & ;;
        esac
        """#

    struct Run {
        let outcome: CLIResult
        let record: String

        func recorded(_ name: String) -> String { (try? String(contentsOfFile: record + "/" + name, encoding: .utf8)) ?? "" }
    }

    func login(_ server: TestAuthorizationServer, _ sandbox: Sandbox, mode: String, extra: [String] = []) async throws -> Run {
        let record = sandbox.root + "/browser-\(mode)"
        try FileManager.default.createDirectory(atPath: record, withIntermediateDirectories: true)
        let script = sandbox.root + "/browser.sh"
        if !FileManager.default.fileExists(atPath: script) {
            guard FileManager.default.createFile(atPath: script, contents: Data(Self.browserScript.utf8), attributes: [.posixPermissions: 0o700]) else {
                throw DeadlineExceeded(what: "writing the browser script")
            }
        }
        var environment = sandbox.environment
        environment["BROWSER"] = script
        environment["BROWSER_RECORD"] = record
        environment["BROWSER_MODE"] = mode
        environment["TOKENKIT_PASSPHRASE"] = Self.passphraseInEnvironment
        environment["PGPASSWORD"] = Self.databasePasswordInEnvironment
        let outcome = try await TokenKitCLI().run(
            ["login", "--service", "app", "--account", "alice", "--issuer", server.issuer, "--client-id", AuthorizationServerState.signInClientID,
             "--scope", "openid"] + extra + sandbox.backend + ["--scrypt-log-n", "10"],
            environment: .exactly(environment), timeout: .seconds(90))
        return Run(outcome: outcome, record: record)
    }

    func stored(_ sandbox: Sandbox) async throws -> TokenSet? {
        let outcome = try await TokenKitCLI().run(
            ["store", "get", "--reveal", "--service", "app", "--account", "alice"] + sandbox.backend, environment: .exactly(sandbox.environment))
        return outcome.status == 0 ? try TokenSet(jsonBytes: Array(outcome.stdoutText.utf8)) : nil
    }

    @Test("the browser gets only the one-time start URL, and an environment without the secrets tokenkit reads; stderr names the account")
    func startURLAndEnvironment() async throws {
        let sandbox = try Sandbox()
        try await TestAuthorizationServer.with { server in
            let run = try await login(server, sandbox, mode: "follow", extra: ["--timeout", "60"])
            #expect(run.outcome.status == 0, "\(run.outcome.stderr)")
            #expect(run.outcome.stderr == "signed in as user-1 (alice@example.com) to app/alice (stored in file)\n")
            let argv = run.recorded("argv").split(separator: "\n")
            #expect(argv.count == 1, "\(argv)")
            let start = String(argv.first ?? "")
            #expect(start.wholeMatch(of: /http:\/\/127\.0\.0\.1:[0-9]+\/start\/[A-Za-z0-9_-]{43}/) != nil, "\(start)")
            for secret in ["state=", "code_challenge", "nonce", "authorize"] { #expect(!start.contains(secret)) }
            let environment = run.recorded("env")
            #expect(environment.contains("BROWSER_MODE=follow"), "the script recorded no environment")
            #expect(!environment.contains("TOKENKIT_PASSPHRASE") && !environment.contains(Self.passphraseInEnvironment))
            #expect(!environment.contains("PGPASSWORD") && !environment.contains(Self.databasePasswordInEnvironment))
            let tokenSet = try #require(try await stored(sandbox))
            #expect(tokenSet.metadata["login.subject"] == "user-1")
            #expect(tokenSet.metadata["login.email"] == "alice@example.com")
        }
    }

    @Test("a second request for the start URL is answered 410 and ends the sign-in: exit 1, nothing stored")
    func startURLFetchedTwice() async throws {
        let sandbox = try Sandbox()
        try await TestAuthorizationServer.with { server in
            let run = try await login(server, sandbox, mode: "twice", extra: ["--timeout", "60"])
            #expect(run.recorded("first") == "302")
            #expect(run.recorded("second") == "410")
            #expect(run.outcome.status == 1, "\(run.outcome.stderr)")
            #expect(run.outcome.stderr.hasPrefix("error: the sign-in link was opened a second time"), "\(run.outcome.stderr)")
            #expect(run.outcome.stderr.split(separator: "\n").count == 1)
            #expect(await server.state.exchanges == 0)
            #expect(try await stored(sandbox) == nil)
        }
    }

    @Test("a forged callback with a wrong state is answered 400 and ignored; the real sign-in completes")
    func forgedCallbackIgnored() async throws {
        let sandbox = try Sandbox()
        try await TestAuthorizationServer.with { server in
            let run = try await login(server, sandbox, mode: "forged", extra: ["--timeout", "60"])
            #expect(run.recorded("forged") == "400")
            #expect(run.outcome.status == 0, "\(run.outcome.stderr)")
            #expect(try await stored(sandbox)?.metadata["login.subject"] == "user-1")
        }
    }

    @Test("a client dripping bytes and idle connections on the port do not keep the browser's callback out")
    func crowdedPort() async throws {
        let sandbox = try Sandbox()
        try await TestAuthorizationServer.with { server in
            let run = try await login(server, sandbox, mode: "crowded", extra: ["--timeout", "60"])
            #expect(run.outcome.status == 0, "\(run.outcome.stderr)")
            #expect(try await stored(sandbox) != nil)
        }
    }

    @Test("--timeout ends the wait although a local client keeps dripping bytes: exit 1")
    func timeoutDespiteADrippingClient() async throws {
        let sandbox = try Sandbox()
        try await TestAuthorizationServer.with { server in
            let run = try await login(server, sandbox, mode: "stall", extra: ["--timeout", "3"])
            #expect(run.outcome.status == 1, "\(run.outcome.stderr)")
            #expect(run.outcome.stderr == "error: sign-in timed out: the browser did not come back to the app\n")
        }
    }

    @Test("RFC 9207: when discovery promises iss, a callback without it is refused (exit 1)")
    func missingIssRefused() async throws {
        let sandbox = try Sandbox()
        try await TestAuthorizationServer.with { server in
            await server.state.set(promisesIss: true, sendsIss: false)
            let run = try await login(server, sandbox, mode: "follow", extra: ["--timeout", "60"])
            #expect(run.outcome.status == 1, "\(run.outcome.stderr)")
            #expect(run.outcome.stderr.contains("has no iss"), "\(run.outcome.stderr)")
            #expect(try await stored(sandbox) == nil)
            // A server that does not promise iss may leave it out.
            await server.state.set(promisesIss: false, sendsIss: false)
            let tolerated = try await login(server, sandbox, mode: "follow", extra: ["--timeout", "60"])
            #expect(tolerated.outcome.status == 0, "\(tolerated.outcome.stderr)")
        }
    }

    @Test("a refresh whose ID token names another account is refused (exit 2) and the stored login is kept")
    func refreshWithAnotherSubject() async throws {
        let sandbox = try Sandbox()
        try await TestAuthorizationServer.with { server in
            #expect(try await login(server, sandbox, mode: "follow", extra: ["--timeout", "60"]).outcome.status == 0)
            let before = try #require(try await stored(sandbox))
            await server.state.set(refreshSubject: "mallory")
            let cli = try TokenKitCLI()
            let refreshed = try await cli.run(
                ["token", "--service", "app", "--account", "alice", "--skew", "2h"] + sandbox.backend, environment: .exactly(sandbox.environment))
            #expect(refreshed.status == 2, "\(refreshed.stderr)")
            #expect(refreshed.stderr.contains("another subject than the stored login"), "\(refreshed.stderr)")
            #expect(refreshed.stdoutText.isEmpty)
            #expect(try await stored(sandbox) == before)
            // The same account on refresh is accepted.
            await server.state.set(refreshSubject: nil)
            let again = try await cli.run(
                ["token", "--service", "app", "--account", "alice", "--skew", "2h"] + sandbox.backend, environment: .exactly(sandbox.environment))
            #expect(again.status == 0, "\(again.stderr)")
        }
    }
}
#endif
