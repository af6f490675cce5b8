#if Hummingbird && Postgres
import Foundation
import Testing
import TokenKitTestSupport

/// `tokenkit login` / `token` / `logout` as real processes against django-oauth-toolkit, with
/// the scripted user agent as `$BROWSER`.
@Suite("tokenkit login against django-oauth-toolkit", .enabled(if: OAuthServerEnvironment.enabled), .serialized)
struct DjangoOAuthToolkitCLITests {
    typealias Sandbox = TokenCommandProcessTests.Sandbox

    func environment(_ env: OAuthServerEnvironment, _ sandbox: Sandbox, action: String = "approve") -> [String: String] {
        var variables = sandbox.environment
        for (name, value) in env.variables where name.hasPrefix("TOKENKIT_OAUTH_") { variables[name] = value }
        variables["PATH"] = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"  // browser.py's python3
        variables["BROWSER"] = env.browser
        variables["TOKENKIT_OAUTH_BROWSER_ACTION"] = action
        return variables
    }

    func login(_ env: OAuthServerEnvironment, _ sandbox: Sandbox, account: String = "alice", action: String = "approve", extra: [String] = []) async throws -> CLIResult {
        try await TokenKitCLI().run(
            ["login", "--service", "app", "--account", account, "--issuer", env.issuer,
             "--client-id", env["NATIVE_CLIENT_ID"], "--scope", "openid", "--scope", "read"] + extra + sandbox.backend,
            environment: .exactly(environment(env, sandbox, action: action)), timeout: .seconds(90))
    }

    @Test("login (PKCE + ID token), token from the stored login, logout with revocation")
    func fullCycle() async throws {
        let env = try OAuthServerEnvironment.require()
        let sandbox = try Sandbox()
        let cli = try TokenKitCLI()
        let signedIn = try await login(env, sandbox, extra: ["--timeout", "60"])
        #expect(signedIn.status == 0, "\(signedIn.stderr)")
        #expect(signedIn.stdoutText.isEmpty)
        #expect(signedIn.stderr == "signed in as 1 to app/alice (stored in file)\n")
        // No endpoint flags: they come from the stored login. --skew 2h forces a refresh (rotation).
        let first = try await cli.run(["token", "--service", "app", "--account", "alice"] + sandbox.backend, environment: .exactly(environment(env, sandbox)))
        #expect(first.status == 0, "\(first.stderr)")
        let refreshed = try await cli.run(["token", "--service", "app", "--account", "alice", "--skew", "2h"] + sandbox.backend, environment: .exactly(environment(env, sandbox)))
        #expect(refreshed.status == 0, "\(refreshed.stderr)")
        #expect(refreshed.stdoutText != first.stdoutText)
        let out = try await cli.run(["logout", "--service", "app", "--account", "alice"] + sandbox.backend, environment: .exactly(environment(env, sandbox)))
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stderr.contains("revoked"))
        let again = try await cli.run(["logout", "--service", "app", "--account", "alice"] + sandbox.backend, environment: .exactly(environment(env, sandbox)))
        #expect(again.status == 1)
        #expect(again.stderr == "error: nothing is stored for app/alice\n")
        let gone = try await cli.run(["token", "--service", "app", "--account", "alice"] + sandbox.backend, environment: .exactly(environment(env, sandbox)))
        #expect(gone.status == 1)
    }

    @Test("A denied consent exits 1 with one error line and stores nothing")
    func denied() async throws {
        let env = try OAuthServerEnvironment.require()
        let sandbox = try Sandbox()
        let outcome = try await login(env, sandbox, action: "deny")
        #expect(outcome.status == 1)
        #expect(outcome.stderr.hasPrefix("error: access denied"))
        #expect(outcome.stderr.split(separator: "\n").count == 1)
        let list = try await TokenKitCLI().run(["store", "list", "--service", "app"] + sandbox.backend, environment: .exactly(environment(env, sandbox)))
        #expect(!list.stdoutText.contains("alice"))
    }

    @Test("A user who closes the browser: exit 1 after --timeout")
    func closedBrowser() async throws {
        let env = try OAuthServerEnvironment.require()
        let sandbox = try Sandbox()
        let outcome = try await login(env, sandbox, action: "close", extra: ["--timeout", "3"])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("timed out"))
    }

    @Test("A server that is not there: exit 2")
    func serverDown() async throws {
        let env = try OAuthServerEnvironment.require()
        let sandbox = try Sandbox()
        let outcome = try await TokenKitCLI().run(
            ["login", "--service", "app", "--account", "a", "--issuer", "http://127.0.0.1:9", "--client-id", "x"] + sandbox.backend,
            environment: .exactly(environment(env, sandbox)), timeout: .seconds(60))
        #expect(outcome.status == 2)
        #expect(outcome.stderr.hasPrefix("error: "))
    }

    @Test("login --device prints one line with the URI and code, then polls until approved")
    func device() async throws {
        let env = try OAuthServerEnvironment.require()
        let sandbox = try Sandbox()
        let script = """
            "$TK" login --device --service app --account dev --issuer "$TOKENKIT_OAUTH_ISSUER" \
                --client-id "$TOKENKIT_OAUTH_DEVICE_CLIENT_ID" --scope read --timeout 60 "$@" 2>"$ERR" &
            pid=$!
            # Up to the login's own 60 s (a loaded machine may take seconds to reach the prompt).
            for _ in $(seq 600); do grep -q 'enter the code' "$ERR" && break; kill -0 $pid 2>/dev/null || break; sleep 0.1; done
            code=$(sed -n 's/.*enter the code \\([A-Z0-9]*\\).*/\\1/p' "$ERR")
            "$TOKENKIT_OAUTH_BROWSER" --device "$code" || exit 90
            wait $pid
            """
        var variables = environment(env, sandbox)
        variables["TK"] = try TokenKitCLI().path
        variables["ERR"] = sandbox.root + "/stderr"
        let status = try await ChildProcess(
            "/bin/bash", ["-c", script, "device-login"] + sandbox.backend, environment: variables,
            stdin: .inherit, stdout: .inherit, stderr: .inherit
        ).run(timeout: .seconds(90)).status
        let stderr = try String(contentsOfFile: sandbox.root + "/stderr", encoding: .utf8)
        #expect(status == 0, "\(stderr)")
        let lines = stderr.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.contains("\(env.issuer)/device/") == true)
        #expect(lines.last == "signed in to app/dev (stored in file)")
    }
}
#endif
