#if Hummingbird && Postgres
import Foundation
import Testing
import TokenKitStore
import TokenKitTestSupport

/// Issue 25: a login the server issued is never lost when the keyring fails at the moment of
/// the write. Real processes: the built `tokenkit`, a private gnome-keyring per test, and
/// token servers whose refresh tokens are single-use (a lost token set turns the next refresh
/// into `invalid_grant`). The keyring is broken while the server holds the request (`token`)
/// or between the device authorization and the first poll (`login`).
@Suite("keyring failing at the moment of the write: nothing issued is lost")
struct KeyringRescueCLITests {
    typealias Breakage = KeyringFixture.Breakage
    static let key = ["--service", "com.example.api", "--account", "alice"]

    @Test("token: the refreshed set goes to the rescue file, and later tokens refresh from it", arguments: Breakage.allCases)
    func tokenWrite(_ breakage: Breakage) async throws {
        let cli = try TokenKitCLI()
        let sandbox = try KeyringFixture.Sandbox()
        try await KeyringFixture.withKeyring { keyring in
            let env = KeyringFixture.environment(sandbox, keyring)
            try await TestAuthorizationServer.with { server in
                let seeded = await server.state.signIn(expiresAt: Date().addingTimeInterval(-30))
                let put = try await cli.run(
                    ["store", "put", "--token-set", "--backend", "secret-service"] + Self.key,
                    stdin: String(decoding: seeded.jsonBytes(), as: UTF8.self), environment: .exactly(env))
                #expect(put.status == 0, "\(put.stderr)")
                // Stored by `store put`, not `login`: no record, so the backend is named (as it was for the put).
                let token = ["token", "--backend", "secret-service"] + Self.key + [
                    "--token-endpoint", server.tokenEndpoint.absoluteString, "--client-id", AuthorizationServerState.nativeClientID,
                ]

                await server.state.closeGate()
                async let refreshing = cli.run(token, environment: .exactly(env))
                try await KeyringFixture.waitUntil("the token request") { await server.state.tokenRequests == 1 }
                try await breakage.apply(to: keyring)
                await server.state.openGate()
                let first = try await refreshing
                #expect(first.status == 0, "stderr: \(first.stderr)")
                #expect(first.stdoutText.hasPrefix("at-") && first.stdoutText != seeded.accessToken + "\n")
                KeyringFixture.expectRescueWarning(first.stderr, key: Self.key)

                // The keyring is still broken: the next `token` finds the rescued set (fresh: no request).
                let second = try await cli.run(token, environment: .exactly(env))
                #expect(second.status == 0, "stderr: \(second.stderr)")
                #expect(second.stdoutText == first.stdoutText)
                #expect(await server.state.refreshCount == 1)

                // Forced to refresh, it sends the rescued (live) refresh token: accepted, no reuse.
                let third = try await cli.run(token + ["--skew", "2h"], environment: .exactly(env))
                #expect(third.status == 0, "stderr: \(third.stderr)")
                #expect(third.stdoutText.hasPrefix("at-") && third.stdoutText != first.stdoutText)
                #expect(await server.state.refreshCount == 2)
                #expect(await server.state.reuseDetections == 0)

                if breakage == .hung {
                    // The keyring answers again: `store restore` moves the login back into it.
                    keyring.signalProvider(SIGCONT)
                    let restore = try await cli.run(["store", "restore"] + Self.key, environment: .exactly(env))
                    #expect(restore.status == 0, "stderr: \(restore.stderr)")
                    #expect(restore.stdoutText.contains("into secret-service"))
                    let stored = try await cli.run(["store", "get", "--reveal", "--backend", "secret-service"] + Self.key, environment: .exactly(env))
                    #expect(try TokenSet(jsonBytes: Array(stored.stdoutText.utf8)).accessToken + "\n" == third.stdoutText)
                    let again = try await cli.run(["store", "restore"] + Self.key, environment: .exactly(env))
                    #expect(again.status == 1 && again.stderr.contains("nothing is kept in the rescue file"), "stderr: \(again.stderr)")
                }
            }
        }
    }

    @Test("login: the issued login goes to the rescue file, and `token` refreshes it without a new sign-in", arguments: Breakage.allCases)
    func loginWrite(_ breakage: Breakage) async throws {
        let cli = try TokenKitCLI()
        let sandbox = try KeyringFixture.Sandbox()
        try await KeyringFixture.withKeyring { keyring in
            let env = KeyringFixture.environment(sandbox, keyring)
            try await TestAuthorizationServer.with { server in
                async let signingIn = cli.run(try KeyringFixture.deviceLogin(Self.key, server, sandbox) + ["--timeout", "60"], environment: .exactly(env))
                // The device request came after the store check; the first poll comes a second later.
                try await KeyringFixture.waitUntil("the device request") { await server.state.deviceRequests == 1 }
                try await breakage.apply(to: keyring)
                let login = try await signingIn
                #expect(login.status == 0, "stderr: \(login.stderr)")
                KeyringFixture.expectRescueWarning(login.stderr, key: Self.key)
                #expect(login.stderr.contains("signed in to com.example.api/alice (stored in secret-service)"))

                // No endpoint or client flags, the keyring still broken: refreshed from the rescue file.
                let token = try await cli.run(["token"] + Self.key + ["--skew", "2h"], environment: .exactly(env))
                #expect(token.status == 0, "stderr: \(token.stderr)")
                #expect(token.stdoutText.hasPrefix("svc-at-2-"), "stdout: \(token.stdoutText)")
                #expect(await server.state.lastForm["grant_type"] == "refresh_token")
                #expect(await server.state.issued == 2)
            }
        }
    }

    @Test("login with an unusable store fails before contacting the server")
    func unusableStoreFailsFirst() async throws {
        let cli = try TokenKitCLI()
        let sandbox = try KeyringFixture.Sandbox()
        try await KeyringFixture.withKeyring { keyring in
            try await keyring.lockDefaultCollection()
            try await TestAuthorizationServer.with { server in
                let login = try KeyringFixture.deviceLogin(Self.key, server, sandbox)
                let locked = try await cli.run(login + ["--backend", "secret-service"], environment: .exactly(KeyringFixture.environment(sandbox, keyring)))
                #expect(locked.status == 2, "stderr: \(locked.stderr)")
                #expect(locked.stderr.hasPrefix("error: secret-service backend: the default keyring collection is locked"), "stderr: \(locked.stderr)")
                #expect(locked.stderr.contains("--backend file"))

                // A wrong passphrase for an existing encrypted file: refused before the sign-in too.
                let right = try KeyringFixture.file(sandbox, "right", "right passphrase")
                let wrong = try KeyringFixture.file(sandbox, "wrong", "wrong passphrase")
                let put = try await cli.run(
                    ["store", "put", "--service", "other", "--account", "x"] + sandbox.backend.prefix(4) + ["--passphrase-file", right, "--scrypt-log-n", "4"],
                    stdin: "S", environment: .exactly(sandbox.environment))
                #expect(put.status == 0, "\(put.stderr)")
                let wrongFile = try await cli.run(login + sandbox.backend.prefix(4) + ["--passphrase-file", wrong], environment: .exactly(sandbox.environment))
                #expect(wrongFile.status == 2, "stderr: \(wrongFile.stderr)")
                #expect(wrongFile.stderr.hasPrefix("error: file backend:"), "stderr: \(wrongFile.stderr)")
                #expect(await server.state.deviceRequests == 0)
                #expect(await server.state.tokenRequests == 0)
            }
        }
    }
}
#endif
