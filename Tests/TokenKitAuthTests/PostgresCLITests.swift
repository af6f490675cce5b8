#if Hummingbird && Postgres
import Foundation
import PostgresTestSupport
import Testing
import TokenKitPostgres
import TokenKitStore
import TokenKitTestSupport

/// `tokenkit store`, `token` and `audit --store` with `--backend postgres`: same outputs,
/// exit codes and one-line errors as the other backends; the password never in argv.
@Suite("tokenkit with --backend postgres")
struct PostgresCLITests {
    /// A passphrase file, the database URL (no password) and a fresh table.
    struct Setup {
        let directory: PrivateTemporaryDirectory
        var root: String { directory.path }
        let table: String
        let url: String
        var passphrasePath: String { root + "/passphrase" }
        var environment: [String: String] {
            ["PATH": "/usr/bin:/bin", "HOME": root, "XDG_RUNTIME_DIR": root, "PGPASSWORD": PostgresTestServer.environment["PGPASSWORD"] ?? ""]
        }
        var backend: [String] {
            ["--backend", "postgres", "--database-url", url, "--database-table", table, "--passphrase-file", passphrasePath, "--scrypt-log-n", "4"]
        }

        init() throws {
            _ = try PostgresTestServer.main()
            url = try #require(PostgresTestServer.environment["TOKENKIT_TEST_POSTGRES_URL"])
            table = uniqueTable("cli")
            directory = try PrivateTemporaryDirectory(prefix: "tokenkit-pg-cli")
            try Data("correct horse battery staple\n".utf8).write(to: URL(fileURLWithPath: passphrasePath))
            // Secret files must not be readable by group or others (the CLI refuses them).
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: passphrasePath)
        }
    }

    let key = ["--service", "com.example.api", "--account", "alice"]

    /// Stores, with `tokenkit store put`, a login of `server` whose access token has expired.
    func putExpiredLogin(_ server: TestAuthorizationServer, _ cli: TokenKitCLI, _ setup: Setup) async throws {
        let seeded = await server.state.signIn(expiresAt: Date().addingTimeInterval(-30))
        let put = try await cli.run(
            ["store", "put", "--token-set"] + key + setup.backend,
            stdin: String(decoding: seeded.jsonBytes(), as: UTF8.self), environment: .exactly(setup.environment))
        #expect(put.status == 0, "\(put.stderr)")
    }

    /// `tokenkit token` for the stored login at `server` (backend options to be added).
    func tokenArguments(_ server: TestAuthorizationServer) -> [String] {
        ["token"] + key + ["--token-endpoint", server.tokenEndpoint.absoluteString, "--client-id", AuthorizationServerState.nativeClientID]
    }

    @Test("store put, get --reveal, list and delete work as with the file backend, and the row holds no plaintext")
    func storeCommands() async throws {
        let cli = try TokenKitCLI()
        let setup = try Setup()
        let json = #"{"access_token":"AT-plaintext-cli","refresh_token":"RT-plaintext-cli","expires_at":1900000000}"#
        let put = try await cli.run(["store", "put", "--token-set"] + key + setup.backend, stdin: json, environment: .exactly(setup.environment))
        #expect(put.status == 0, "\(put.stderr)")
        #expect(put.stdoutText.hasSuffix("in postgres\n"))
        let get = try await cli.run(["store", "get", "--reveal"] + key + setup.backend, environment: .exactly(setup.environment))
        #expect(get.status == 0)
        #expect(try TokenSet(jsonBytes: Array(get.stdoutText.utf8)).accessToken == "AT-plaintext-cli")
        let list = try await cli.run(["store", "list", "--service", "com.example.api"] + setup.backend, environment: .exactly(setup.environment))
        #expect(list.status == 0)
        #expect(list.stdoutText.hasPrefix("alice\t"))
        let rows = try await PostgresTestServer.psql("SELECT t::text FROM \(setup.table) t")
        #expect(rows.contains("alice") && !rows.contains("plaintext"))
        let delete = try await cli.run(["store", "delete"] + key + setup.backend, environment: .exactly(setup.environment))
        #expect(delete.status == 0)
        let missing = try await cli.run(["store", "get"] + key + setup.backend, environment: .exactly(setup.environment))
        #expect(missing.status == 1)
        #expect(missing.stderr.hasPrefix("error: "))
    }

    @Test("token refreshes through the shared lock and store; audit --store reads the same rows")
    func tokenAndAudit() async throws {
        let cli = try TokenKitCLI()
        let setup = try Setup()
        try await TestAuthorizationServer.with { server in
            try await putExpiredLogin(server, cli, setup)
            let arguments = tokenArguments(server) + setup.backend
            let outcomes = try await withThrowingTaskGroup(of: CLIResult.self) { group in
                for _ in 0..<4 { group.addTask { try await cli.run(arguments, environment: .exactly(setup.environment)) } }
                var all: [CLIResult] = []
                for try await outcome in group { all.append(outcome) }
                return all
            }
            #expect(outcomes.allSatisfy { $0.status == 0 && $0.stderr.isEmpty }, "\(outcomes.map(\.stderr))")
            #expect(Set(outcomes.map(\.stdoutText)).count == 1)
            #expect(await server.state.refreshCount == 1)
            let jwt = makeJWT(exp: Date().addingTimeInterval(3600))
            let putJWT = try await cli.run(
                ["store", "put", "--token-set", "--service", "com.example.api", "--account", "jwt"] + setup.backend,
                stdin: #"{"access_token":"\#(jwt)"}"#, environment: .exactly(setup.environment))
            #expect(putJWT.status == 0, "\(putJWT.stderr)")
            let audit = try await cli.run(["audit", "--store", "--service", "com.example.api"] + setup.backend, environment: .exactly(setup.environment))
            #expect(audit.status == 0 || audit.status == 1, "\(audit.stderr)")
            #expect(audit.stdoutText.contains("store:com.example.api/jwt"), "\(audit.stdoutText)")
            #expect(!audit.stdoutText.contains(jwt))
        }
    }

    @Test("wrong database password and unreachable server: exit 2, one error line, no password")
    func connectionFailures() async throws {
        let cli = try TokenKitCLI()
        let setup = try Setup()
        var wrong = setup.environment
        wrong["PGPASSWORD"] = "wrong-db-password"
        let refused = try await cli.run(["store", "get"] + key + setup.backend, environment: .exactly(wrong))
        #expect(refused.status == 2)
        #expect(refused.stderr.hasPrefix("error: postgres backend: PostgreSQL at "), "\(refused.stderr)")
        #expect(refused.stderr.contains("refused the login"))
        #expect(refused.stderr.filter { $0 == "\n" }.count == 1)
        #expect(!refused.stderr.contains("wrong-db-password"))
        // The password may also come from a file.
        let passwordFile = setup.root + "/db-password"
        try Data("\(setup.environment["PGPASSWORD"] ?? "")\n".utf8).write(to: URL(fileURLWithPath: passwordFile))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: passwordFile)
        let fromFile = try await cli.run(
            ["store", "list", "--service", "x", "--database-password-file", passwordFile] + setup.backend, environment: .exactly(wrong))
        #expect(fromFile.status == 0, "\(fromFile.stderr)")

        let unreachable = try await cli.run(
            ["store", "get"] + key + ["--backend", "postgres", "--database-url", "postgres://u@127.0.0.1:1/db", "--passphrase-file", setup.passphrasePath],
            environment: .exactly(setup.environment))
        #expect(unreachable.status == 2)
        #expect(unreachable.stderr.hasPrefix("error: postgres backend: cannot connect to PostgreSQL at postgres://u@127.0.0.1:1/db"), "\(unreachable.stderr)")
    }

    @Test("store delete with a wrong passphrase is refused (exit 2) like the file backend, and the row stays")
    func deleteWithWrongPassphrase() async throws {
        let cli = try TokenKitCLI()
        let setup = try Setup()
        let put = try await cli.run(["store", "put"] + key + setup.backend, stdin: "S3CRET", environment: .exactly(setup.environment))
        #expect(put.status == 0, "\(put.stderr)")
        let wrongPath = setup.root + "/wrong-passphrase"
        try Data("battery staple horse correct\n".utf8).write(to: URL(fileURLWithPath: wrongPath))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: wrongPath)
        let wrongBackend = setup.backend.map { $0 == setup.passphrasePath ? wrongPath : $0 }
        let delete = try await cli.run(["store", "delete"] + key + wrongBackend, environment: .exactly(setup.environment))
        #expect(delete.status == 2, "\(delete.stderr)")
        #expect(delete.stderr.hasPrefix("error: ") && delete.stderr.contains("wrong passphrase"), "\(delete.stderr)")
        await #expect(try PostgresTestServer.psql("SELECT count(*) FROM \(setup.table)") == "1")
        let get = try await cli.run(["store", "get", "--reveal"] + key + setup.backend, environment: .exactly(setup.environment))
        #expect(get.stdoutText == "S3CRET")
    }

    @Test("token --timeout also bounds the wait for the PostgreSQL refresh lock (the request deadline + 15 s, not a fixed 30 s)")
    func lockWaitFollowsTimeout() async throws {
        let cli = try TokenKitCLI()
        let setup = try Setup()
        try await TestAuthorizationServer.with { server in
            try await putExpiredLogin(server, cli, setup)
            // Another replica holds the credential's lock (the CLI's namespace is the table).
            let held = try await PostgresRefreshLock(endpoint: try PostgresTestServer.main(), namespace: setup.table, timeout: .seconds(10))
                .acquire(for: CredentialKey(service: "com.example.api", account: "alice"))
            defer { held.release() }
            let token = try await cli.run(tokenArguments(server) + ["--timeout", "1"] + setup.backend, environment: .exactly(setup.environment), timeout: .seconds(90))
            #expect(token.status == 2, "\(token.stderr)")
            #expect(token.stderr.contains("refresh lock: timed out after 16.0 seconds"), "\(token.stderr)")
            #expect(await server.state.tokenRequests == 0)
        }
    }

    @Test("usage errors exit 64: no --database-url, a password in the URL, a bad table name")
    func usage() async throws {
        let cli = try TokenKitCLI()
        let setup = try Setup()
        let base = ["store", "get"] + key + ["--backend", "postgres", "--passphrase-file", setup.passphrasePath]
        let noURL = try await cli.run(base, environment: .exactly(setup.environment))
        #expect(noURL.status == 64)
        #expect(noURL.stderr.contains("--database-url"))
        let inURL = try await cli.run(base + ["--database-url", "postgres://u:hunter2@127.0.0.1/db"], environment: .exactly(setup.environment))
        #expect(inURL.status == 64)
        #expect(inURL.stderr.contains("must not contain a password") && !inURL.stderr.contains("hunter2"))
        let badTable = try await cli.run(base + ["--database-url", setup.url, "--database-table", "x;drop"], environment: .exactly(setup.environment))
        #expect(badTable.status == 64)
        #expect(badTable.stderr.contains("table name"))
    }
}
#endif
