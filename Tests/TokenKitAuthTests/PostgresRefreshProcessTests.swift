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
/// against the real token endpoint of ``TestAuthorizationServer``.
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

    /// Where a holder stalls (tokenkit-refresh-stress's STALL): before its token request, or
    /// after the server answered (and rotated the refresh token) but before the store write.
    enum Stall {
        case beforeRequest(seconds: Int)
        case afterRotation(seconds: Int)

        var argument: String {
            switch self {
            case .beforeRequest(let seconds): String(seconds)
            case .afterRotation(let seconds): "after:\(seconds)"
            }
        }

        /// What the holder prints when it reaches the stall.
        var announcement: String {
            switch self {
            case .beforeRequest: "REFRESHING"
            case .afterRotation: "ROTATED"
            }
        }
    }

    func replicaArguments(_ server: TestAuthorizationServer, table: String, tasks: Int, stall: Stall? = nil) -> [String] {
        [
            PostgresTestServer.environment["TOKENKIT_TEST_POSTGRES_URL"] ?? "", table, Self.service, Self.account,
            server.tokenEndpoint.absoluteString, AuthorizationServerState.nativeClientID, String(tasks),
        ] + (stall.map { [$0.argument] } ?? [])
    }

    @Test("8 processes × 50 concurrent tasks at expiry: exactly 1 refresh, and every process ends with the newest token set")
    func fleetRefreshesOnce() async throws {
        _ = try PostgresTestServer.main()
        let table = uniqueTable("fleet")
        let replica = try TokenKitCLI(binary: "tokenkit-refresh-stress")
        let store = try PostgresTestServer.freshStore(table: table)
        let key = try credentialKey
        try await TestAuthorizationServer.with { server in
            let seeded = await server.state.signIn(expiresAt: Date().addingTimeInterval(-30))
            try await store.save(Credential(tokenSet: seeded), for: key)
            let arguments = replicaArguments(server, table: table, tasks: 50)
            let environment = replicaEnvironment()
            let outcomes = try await withThrowingTaskGroup(of: CLIResult.self) { group in
                for _ in 0..<8 {
                    group.addTask { try await replica.run(arguments, environment: .exactly(environment), timeout: .seconds(120)) }
                }
                var all: [CLIResult] = []
                for try await outcome in group { all.append(outcome) }
                return all
            }
            var printed: Set<Substring> = []
            for outcome in outcomes {
                #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
                #expect(outcome.stderr.isEmpty)
                let lines = outcome.stdoutText.split(separator: "\n")
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

    /// A fresh table holding an expired login, and a replica that has taken the lock and
    /// stalls where `stall` says (having printed its announcement): `body` gets the holder, the
    /// server, the store and the seeded set; the holder is killed afterwards.
    func withHolderMidRefresh(
        _ label: String, stall: Stall, holderEnvironment: [String: String] = [:],
        _ body: @escaping @Sendable (ChildProcess.Running, TestAuthorizationServer, PostgresTokenStore, String, TokenSet) async throws -> Void
    ) async throws {
        _ = try PostgresTestServer.main()
        let table = uniqueTable(label)
        let replica = try TokenKitCLI(binary: "tokenkit-refresh-stress")
        let store = try PostgresTestServer.freshStore(table: table)
        let key = try credentialKey
        try await TestAuthorizationServer.with { server in
            let seeded = await server.state.signIn(expiresAt: Date().addingTimeInterval(-30))
            try await store.save(Credential(tokenSet: seeded), for: key)
            let holder = try ChildProcess(
                replica.path, replicaArguments(server, table: table, tasks: 1, stall: stall),
                environment: replicaEnvironment().merging(holderEnvironment) { $1 },
                stdin: .inherit, stderr: .discard
            ).start()
            defer { holder.signal(SIGKILL) }
            let announced = try await holder.waitForStdout(timeout: .seconds(60)) { $0.contains(stall.announcement) }
            #expect(announced.contains(stall.announcement), "holder printed: \(announced)")
            try await body(holder, server, store, table, seeded)
        }
        await store.close()
    }

    /// Runs a replica of `tasks` tasks on `table` (`store`'s); checks it printed the stored
    /// token and that the server refreshed once.
    func nextReplica(
        _ server: TestAuthorizationServer, _ store: PostgresTokenStore, table: String, tasks: Int, environment: [String: String], seconds: Double
    ) async throws -> TokenSet {
        let replica = try TokenKitCLI(binary: "tokenkit-refresh-stress")
        let next = try await replica.run(
            replicaArguments(server, table: table, tasks: tasks), environment: .exactly(environment), timeout: .seconds(seconds))
        #expect(next.status == 0, "stderr: \(next.stderr)")
        let stored = try #require(try await store.load(try credentialKey)).tokenSet()
        #expect(Set(next.stdoutText.split(separator: "\n")) == [Substring(stored.accessToken)])
        #expect(await server.state.refreshCount == 1)
        #expect(await server.state.reuseDetections == 0)
        return stored
    }

    @Test("the lock holder killed with SIGKILL mid-refresh: another process refreshes within 10 s")
    func holderKilled() async throws {
        try await withHolderMidRefresh("killed", stall: .beforeRequest(seconds: 60)) { holder, server, store, table, seeded in
            holder.signal(SIGKILL)
            #expect(try await holder.wait().signal != nil)
            let started = ContinuousClock.now
            let stored = try await nextReplica(server, store, table: table, tasks: 5, environment: replicaEnvironment(), seconds: 30)
            let elapsed = ContinuousClock.now - started
            #expect(elapsed < .seconds(10), "took \(elapsed)")
            #expect(stored.accessToken != seeded.accessToken)
        }
    }

    @Test("the holder killed after the server rotated, before the store write: the fleet is told to sign in again, once, and stops asking")
    func holderKilledAfterRotation() async throws {
        try await withHolderMidRefresh("rotated", stall: .afterRotation(seconds: 60)) { holder, server, store, table, seeded in
            // The dangerous window: the server has rotated the refresh token (the new set
            // lives only in the holder's memory) and the store still holds the old one.
            #expect(await server.state.refreshCount == 1)
            holder.signal(SIGKILL)
            #expect(try await holder.wait().signal != nil)
            let key = try credentialKey
            #expect(try await store.load(key).map { try $0.tokenSet().refreshToken } == seeded.refreshToken)

            // The next replica presents the old refresh token once for its 5 tasks: the server
            // sees a reuse and refuses; every task is told to sign in again, the old set is
            // cleared, and no second token request is made.
            let replica = try TokenKitCLI(binary: "tokenkit-refresh-stress")
            let next = try await replica.run(replicaArguments(server, table: table, tasks: 5), environment: .exactly(replicaEnvironment()), timeout: .seconds(30))
            #expect(next.status == 1, "stdout: \(next.stdoutText)")
            #expect(next.stdoutText.isEmpty)
            let errors = next.stderr.split(separator: "\n")
            #expect(errors.count == 5 && errors.allSatisfy { $0.hasPrefix("error: ") }, "stderr: \(next.stderr)")
            #expect(await server.state.tokenRequests == 2)
            #expect(await server.state.reuseDetections == 1)
            // The set the killed holder was given (lost with it) is dead too: its family is revoked.
            #expect(await server.state.isRevoked(refreshToken: seeded.refreshToken ?? ""))
            #expect(try await store.load(key) == nil, "the refused set must be cleared, not retried")

            // A replica after that asks nobody: nothing is stored, so it says so at once.
            let after = try await replica.run(replicaArguments(server, table: table, tasks: 3), environment: .exactly(replicaEnvironment()), timeout: .seconds(30))
            #expect(after.status == 1)
            #expect(after.stderr.contains("no credential is stored"), "stderr: \(after.stderr)")
            #expect(await server.state.tokenRequests == 2)
        }
    }

    @Test("the lock holder frozen with SIGSTOP mid-refresh: the server ends its silent session and another process refreshes")
    func holderFrozen() async throws {
        // The holder's lock asks for a 5 s silence (60 s by default: the same mechanism, pinned
        // by PostgresRefreshLockTests; this keeps the test short).
        let silence = ["TOKENKIT_STRESS_HOLDER_SILENCE_SECONDS": "5"]
        try await withHolderMidRefresh("frozen", stall: .beforeRequest(seconds: 600), holderEnvironment: silence) { holder, server, store, table, seeded in
            // Frozen, not dead: its connection stays open and its kernel still acknowledges.
            holder.signal(SIGSTOP)
            let frozen = ContinuousClock.now
            var environment = replicaEnvironment()
            environment["TOKENKIT_STRESS_LOCK_SECONDS"] = "60"
            let stored = try await nextReplica(server, store, table: table, tasks: 3, environment: environment, seconds: 120)
            #expect(stored.accessToken != seeded.accessToken)
            // Not before the holder's session fell silent for its 5 s (less its heartbeat and
            // a second of slack): the server ended it, nothing else released the lock.
            let waited = ContinuousClock.now - frozen
            #expect(waited >= .seconds(3) && waited < .seconds(40), "the next replica refreshed \(waited) after the freeze")
        }
    }
}
#endif
