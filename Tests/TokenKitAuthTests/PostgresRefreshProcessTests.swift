#if Hummingbird && Postgres
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import PostgresTestSupport
import Testing
import TokenKitPostgres
import TokenKitStore
import TokenKitTestSupport

/// Many replicas, one credential: real processes sharing a PostgreSQL store and refresh lock
/// against the real token endpoint of ``OAuthTestServer``.
@Suite("PostgreSQL refresh across processes")
struct PostgresRefreshProcessTests {
    static let service = "com.example.api"
    static let account = "fleet"

    var credentialKey: CredentialKey { get throws { try CredentialKey(service: Self.service, account: Self.account) } }

    /// The environment a replica gets: the database password and the store passphrase.
    func replicaEnvironment() -> [String: String] {
        [
            "PATH": "/usr/bin:/bin",
            "PGPASSWORD": PostgresTestServer.environment["PGPASSWORD"] ?? "",
            "TOKENKIT_PASSPHRASE": "correct horse",
        ]
    }

    func replicaArguments(_ server: OAuthTestServer, table: String, tasks: Int, stall: Int? = nil) -> [String] {
        [
            PostgresTestServer.environment["TOKENKIT_TEST_POSTGRES_URL"] ?? "", table, Self.service, Self.account,
            server.tokenEndpoint.absoluteString, OAuthServerState.clientID, String(tasks),
        ] + (stall.map { [String($0)] } ?? [])
    }

    @Test("8 processes × 50 concurrent tasks at expiry: exactly 1 refresh, and every process ends with the newest token set")
    func fleetRefreshesOnce() async throws {
        _ = try PostgresTestServer.main()
        let table = uniqueTable("fleet")
        let replica = try CLIProcess.locate("tokenkit-refresh-stress")
        let store = try PostgresTestServer.freshStore(table: table)
        let key = try credentialKey
        try await OAuthTestServer.with { server in
            let seeded = await server.state.signIn(expiresAt: Date().addingTimeInterval(-30))
            try await store.save(Credential(tokenSet: seeded), for: key)
            let arguments = replicaArguments(server, table: table, tasks: 50)
            let environment = replicaEnvironment()
            let outcomes = try await withThrowingTaskGroup(of: CLIProcess.Outcome.self) { group in
                for _ in 0..<8 {
                    group.addTask { try await replica.run(arguments, environment: environment, seconds: 120) }
                }
                var all: [CLIProcess.Outcome] = []
                for try await outcome in group { all.append(outcome) }
                return all
            }
            var printed: Set<Substring> = []
            for outcome in outcomes {
                #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
                #expect(outcome.stderr.isEmpty)
                let lines = outcome.stdout.split(separator: "\n")
                #expect(lines.count == 50)
                printed.formUnion(lines)
            }
            #expect(await server.state.refreshCount == 1)
            #expect(await server.state.tokenRequests == 1)
            #expect(await server.state.reuseDetections == 0)
            let stored = try #require(try await store.load(key)).tokenSet()
            #expect(printed == [Substring(stored.accessToken)], "every task of every process must hold the newest token")
            #expect(stored.accessToken != seeded.accessToken)
            #expect(stored.refreshToken != seeded.refreshToken)
        }
        await store.close()
    }

    /// A fresh table holding an expired login, and a replica that has taken the lock, printed
    /// REFRESHING and stalls `stall` seconds: `body` gets the holder, the server, the store
    /// and the seeded set; the holder is killed afterwards.
    func withHolderMidRefresh(
        _ label: String, stall: Int,
        _ body: @escaping @Sendable (ChildProcess.Running, OAuthTestServer, PostgresTokenStore, String, TokenSet) async throws -> Void
    ) async throws {
        _ = try PostgresTestServer.main()
        let table = uniqueTable(label)
        let replica = try CLIProcess.locate("tokenkit-refresh-stress")
        let store = try PostgresTestServer.freshStore(table: table)
        let key = try credentialKey
        try await OAuthTestServer.with { server in
            let seeded = await server.state.signIn(expiresAt: Date().addingTimeInterval(-30))
            try await store.save(Credential(tokenSet: seeded), for: key)
            let holder = try ChildProcess(
                replica.executable.path, replicaArguments(server, table: table, tasks: 1, stall: stall), environment: replicaEnvironment(),
                stdin: .inherit, stderr: .discard
            ).start()
            defer { holder.signal(SIGKILL) }
            let announced = try await holder.waitForStdout(timeout: .seconds(60)) { $0.contains("REFRESHING") }.contains("REFRESHING")
            #expect(announced)
            try await body(holder, server, store, table, seeded)
        }
        await store.close()
    }

    /// Runs a replica of `tasks` tasks on `table` (`store`'s); checks it printed the stored
    /// token and that the server refreshed once.
    func nextReplica(
        _ server: OAuthTestServer, _ store: PostgresTokenStore, table: String, tasks: Int, environment: [String: String], seconds: Double
    ) async throws -> TokenSet {
        let replica = try CLIProcess.locate("tokenkit-refresh-stress")
        let next = try await replica.run(
            replicaArguments(server, table: table, tasks: tasks), environment: environment, seconds: seconds)
        #expect(next.status == 0, "stderr: \(next.stderr)")
        let stored = try #require(try await store.load(try credentialKey)).tokenSet()
        #expect(Set(next.stdout.split(separator: "\n")) == [Substring(stored.accessToken)])
        #expect(await server.state.refreshCount == 1)
        #expect(await server.state.reuseDetections == 0)
        return stored
    }

    @Test("the lock holder killed with SIGKILL mid-refresh: another process refreshes within 10 s")
    func holderKilled() async throws {
        try await withHolderMidRefresh("killed", stall: 60) { holder, server, store, table, seeded in
            holder.signal(SIGKILL)
            #expect(try await holder.wait().signal != nil)
            let started = ContinuousClock.now
            let stored = try await nextReplica(server, store, table: table, tasks: 5, environment: replicaEnvironment(), seconds: 30)
            let elapsed = ContinuousClock.now - started
            #expect(elapsed < .seconds(10), "took \(elapsed)")
            #expect(stored.accessToken != seeded.accessToken)
        }
    }

    @Test("the lock holder frozen with SIGSTOP mid-refresh: the server ends its silent session and another process refreshes")
    func holderFrozen() async throws {
        try await withHolderMidRefresh("frozen", stall: 600) { holder, server, store, table, seeded in
            // Frozen, not dead: its connection stays open and its kernel still acknowledges.
            holder.signal(SIGSTOP)
            var environment = replicaEnvironment()
            environment["TOKENKIT_STRESS_LOCK_SECONDS"] = "90"  // the promise: released within 90 s
            let stored = try await nextReplica(server, store, table: table, tasks: 3, environment: environment, seconds: 150)
            #expect(stored.accessToken != seeded.accessToken)
        }
    }
}
#endif
