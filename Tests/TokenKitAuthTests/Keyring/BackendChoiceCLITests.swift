#if Hummingbird && Postgres
import Foundation
import Testing
import TokenKitStore
import TokenKitTestSupport

/// Issue 25: `--backend auto` decided the same way every time and recorded with the login, so
/// later commands look where the login is; `TOKENKIT_BACKEND` sets the default.
@Suite("backend choice: auto, the login record, TOKENKIT_BACKEND")
struct BackendChoiceCLITests {
    static let key = ["--service", "com.example.choice", "--account", "bob"]

    @Test("auto with a Secret Service that has no default collection uses the encrypted file (a passphrase file given)")
    func autoWithoutDefaultCollection() async throws {
        let cli = try TokenKitCLI()
        let sandbox = try KeyringFixture.Sandbox()
        try await KeyringFixture.withKeyring(environment: ["WITH_SECRET_SERVICE_NO_COLLECTION": "1"]) { keyring in
            let env = KeyringFixture.environment(sandbox, keyring)
            let file = ["--file", sandbox.storePath, "--passphrase-file", sandbox.passphrasePath, "--scrypt-log-n", "4"]
            let put = try await cli.run(["store", "put"] + Self.key + file, stdin: "S", environment: .exactly(env))
            #expect(put.status == 0, "stderr: \(put.stderr)")
            #expect(put.stdoutText.hasSuffix("in file\n"), "stdout: \(put.stdoutText)")
            let get = try await cli.run(["store", "get"] + Self.key + file, environment: .exactly(env))
            #expect(get.stdoutText.contains("backend: file: the Secret Service is not usable (the Secret Service has no default collection"), "stdout: \(get.stdoutText)")
            // Without a passphrase either, the error says both why not the keyring and what the file needs.
            let none = try await cli.run(["store", "get"] + Self.key, environment: .exactly(env))
            #expect(none.status == 2)
            #expect(none.stderr.contains("no usable Secret Service (the Secret Service is not usable (the Secret Service has no default collection"), "stderr: \(none.stderr)")
            #expect(none.stderr.contains("needs a passphrase"), "stderr: \(none.stderr)")
        }
    }

    @Test("a login stored where the keyring did not answer is found by token and logout where it answers; the record goes with logout")
    func recordedLoginFoundElsewhere() async throws {
        let cli = try TokenKitCLI()
        let sandbox = try KeyringFixture.Sandbox()
        try await KeyringFixture.withKeyring { keyring in
            try await TestAuthorizationServer.with { server in
                let file = ["--file", sandbox.storePath, "--passphrase-file", sandbox.passphrasePath, "--scrypt-log-n", "4"]
                // No session bus: auto stores the login in the encrypted file, and records that.
                let login = try await cli.run(
                    try KeyringFixture.deviceLogin(Self.key, server, sandbox) + file, environment: .exactly(KeyringFixture.environment(sandbox, nil)))
                #expect(login.status == 0, "stderr: \(login.stderr)")
                #expect(login.stderr.contains("(stored in file)"), "stderr: \(login.stderr)")

                // With a working keyring and no backend flags (auto would pick the keyring), the
                // record sends `token` to the file; only the passphrase is given.
                let withKeyring = KeyringFixture.environment(sandbox, keyring)
                let passphrase = ["--passphrase-file", sandbox.passphrasePath]
                let token = try await cli.run(["token"] + Self.key + ["--skew", "2h"] + passphrase, environment: .exactly(withKeyring))
                #expect(token.status == 0, "stderr: \(token.stderr)")
                #expect(token.stdoutText.hasPrefix("svc-at-2-"), "stdout: \(token.stdoutText)")
                let get = try await cli.run(["store", "get"] + Self.key + passphrase, environment: .exactly(withKeyring))
                #expect(get.stdoutText.contains("backend: file: recorded by `tokenkit login`"), "stdout: \(get.stdoutText)")

                let logout = try await cli.run(["logout", "--no-revoke"] + Self.key + passphrase, environment: .exactly(withKeyring))
                #expect(logout.status == 0, "stderr: \(logout.stderr)")
                #expect(logout.stderr.contains("deleted from file"), "stderr: \(logout.stderr)")
                // The record is gone: auto decides again (the keyring), which holds nothing.
                let after = try await cli.run(["store", "get"] + Self.key, environment: .exactly(withKeyring))
                #expect(after.status == 1, "stderr: \(after.stderr)")
                #expect(after.stderr.contains("secret-service"), "stderr: \(after.stderr)")
            }
        }
    }

    @Test("a login recorded in the keyring is looked for there from a shell without the session bus: a keyring error, not 'sign-in required'")
    func recordedKeyringWithoutBus() async throws {
        let cli = try TokenKitCLI()
        let sandbox = try KeyringFixture.Sandbox()
        try await KeyringFixture.withKeyring { keyring in
            try await TestAuthorizationServer.with { server in
                let login = try await cli.run(
                    try KeyringFixture.deviceLogin(Self.key, server, sandbox), environment: .exactly(KeyringFixture.environment(sandbox, keyring)))
                #expect(login.status == 0, "stderr: \(login.stderr)")
                #expect(login.stderr.contains("(stored in secret-service)"), "stderr: \(login.stderr)")
                // A passphrase is at hand, yet the file is not consulted: the login is in the keyring.
                var noBus = KeyringFixture.environment(sandbox, nil)
                noBus["TOKENKIT_PASSPHRASE"] = "anything"
                for command in [["token"], ["logout", "--no-revoke"]] {
                    let outcome = try await cli.run(command + Self.key, environment: .exactly(noBus))
                    #expect(outcome.status == 2, "\(command): \(outcome.stderr)")
                    #expect(outcome.stderr.hasPrefix("error: "), "\(command): \(outcome.stderr)")
                    #expect(outcome.stderr.contains("secret-service backend: no Secret Service"), "\(command): \(outcome.stderr)")
                    #expect(!outcome.stderr.contains("sign-in required") && !outcome.stderr.contains("nothing is stored"))
                }
                // Back in the session, logout finds it.
                let logout = try await cli.run(["logout", "--no-revoke"] + Self.key, environment: .exactly(KeyringFixture.environment(sandbox, keyring)))
                #expect(logout.status == 0, "stderr: \(logout.stderr)")
            }
        }
    }

    @Test("store put --token-set records the login's backend like login does; store delete forgets it only when it deletes from that backend")
    func storePutRecordsTokenSets() async throws {
        let cli = try TokenKitCLI()
        let sandbox = try KeyringFixture.Sandbox()
        try await KeyringFixture.withKeyring { keyring in
            let env = KeyringFixture.environment(sandbox, keyring)
            let file = ["--backend", "file", "--file", sandbox.storePath, "--passphrase-file", sandbox.passphrasePath, "--scrypt-log-n", "4"]
            let passphrase = ["--passphrase-file", sandbox.passphrasePath]
            let put = try await cli.run(["store", "put", "--token-set"] + Self.key + file,
                                        stdin: #"{"access_token":"at-1","token_type":"Bearer","expires_at":4102444800}"#, environment: .exactly(env))
            #expect(put.status == 0, "stderr: \(put.stderr)")
            // Auto would pick the keyring; the record sends `store get` to the file.
            let get = try await cli.run(["store", "get"] + Self.key + passphrase, environment: .exactly(env))
            #expect(get.status == 0, "stderr: \(get.stderr)")
            #expect(get.stdoutText.contains("backend: file: recorded by `tokenkit login`"), "stdout: \(get.stdoutText)")
            // A raw secret is not a login: no record for it, and deleting it from the keyring
            // keeps the record of the file that still holds the token set.
            let raw = try await cli.run(["store", "put", "--backend", "secret-service"] + Self.key, stdin: "S", environment: .exactly(env))
            #expect(raw.status == 0, "stderr: \(raw.stderr)")
            let deleteOther = try await cli.run(["store", "delete", "--backend", "secret-service"] + Self.key, environment: .exactly(env))
            #expect(deleteOther.status == 0, "stderr: \(deleteOther.stderr)")
            let still = try await cli.run(["store", "get"] + Self.key + passphrase, environment: .exactly(env))
            #expect(still.stdoutText.contains("backend: file: recorded by `tokenkit login`"), "stdout: \(still.stdoutText)")
            // Deleting it where it is recorded forgets the record: auto decides again (the keyring, now empty).
            let delete = try await cli.run(["store", "delete"] + Self.key + passphrase, environment: .exactly(env))
            #expect(delete.status == 0, "stderr: \(delete.stderr)")
            #expect(delete.stdoutText.contains("from file"), "stdout: \(delete.stdoutText)")
            let after = try await cli.run(["store", "get"] + Self.key, environment: .exactly(env))
            #expect(after.status == 1, "stderr: \(after.stderr)")
            #expect(after.stderr.contains("secret-service"), "stderr: \(after.stderr)")
        }
    }

    @Test("TOKENKIT_BACKEND chooses the default backend; --backend still wins; a wrong value is a usage error")
    func environmentVariable() async throws {
        let cli = try TokenKitCLI()
        let sandbox = try KeyringFixture.Sandbox()
        try await KeyringFixture.withKeyring { keyring in
            var env = KeyringFixture.environment(sandbox, keyring)
            env["TOKENKIT_BACKEND"] = "file"
            let file = ["--file", sandbox.storePath, "--passphrase-file", sandbox.passphrasePath, "--scrypt-log-n", "4"]
            let put = try await cli.run(["store", "put"] + Self.key + file, stdin: "S", environment: .exactly(env))
            #expect(put.stdoutText.hasSuffix("in file\n"), "stdout: \(put.stdoutText) stderr: \(put.stderr)")
            let explicit = try await cli.run(["store", "put", "--backend", "secret-service"] + Self.key, stdin: "S", environment: .exactly(env))
            #expect(explicit.stdoutText.hasSuffix("in secret-service\n"), "stdout: \(explicit.stdoutText) stderr: \(explicit.stderr)")
            env["TOKENKIT_BACKEND"] = "keyring"
            let wrong = try await cli.run(["store", "list", "--service", "x"], environment: .exactly(env))
            #expect(wrong.status == 64)
            #expect(wrong.stderr == "error: TOKENKIT_BACKEND=keyring is not a backend; use one of auto, secret-service, file, postgres\n")
        }
    }
}
#endif
