import Foundation
#if canImport(Glibc)
import Glibc
#endif
import PostgresTestSupport
import Testing
import TokenKitPostgres
import TokenKitStore

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

    @Test("the lock holder killed with SIGKILL mid-refresh: another process refreshes within 10 s")
    func holderKilled() async throws {
        _ = try PostgresTestServer.main()
        let table = uniqueTable("killed")
        let replica = try CLIProcess.locate("tokenkit-refresh-stress")
        let store = try PostgresTestServer.freshStore(table: table)
        let key = try credentialKey
        try await OAuthTestServer.with { server in
            let seeded = await server.state.signIn(expiresAt: Date().addingTimeInterval(-30))
            try await store.save(Credential(tokenSet: seeded), for: key)
            // The holder takes the lock, announces REFRESHING, then stalls for a minute.
            let holder = Process()
            holder.executableURL = replica.executable
            holder.arguments = replicaArguments(server, table: table, tasks: 1, stall: 60)
            holder.environment = replicaEnvironment()
            let output = Pipe()
            holder.standardOutput = output
            holder.standardError = FileHandle.nullDevice
            try holder.run()
            defer { if holder.isRunning { kill(holder.processIdentifier, SIGKILL) } }
            let reading = output.fileHandleForReading
            let announced = try await withDeadline("the holder announcing its refresh", seconds: 60) {
                await Self.readUntil("REFRESHING", from: reading)
            }
            #expect(announced)
            kill(holder.processIdentifier, SIGKILL)
            holder.waitUntilExit()
            #expect(holder.terminationReason == .uncaughtSignal)

            let started = ContinuousClock.now
            let next = try await replica.run(replicaArguments(server, table: table, tasks: 5), environment: replicaEnvironment(), seconds: 30)
            let elapsed = ContinuousClock.now - started
            #expect(next.status == 0, "stderr: \(next.stderr)")
            #expect(elapsed < .seconds(10), "took \(elapsed)")
            let stored = try #require(try await store.load(key)).tokenSet()
            #expect(Set(next.stdout.split(separator: "\n")) == [Substring(stored.accessToken)])
            #expect(stored.accessToken != seeded.accessToken)
            #expect(await server.state.refreshCount == 1)
            #expect(await server.state.reuseDetections == 0)
        }
        await store.close()
    }

    /// Reads `handle` on a thread of its own until `marker` appears (true) or end of file (false).
    static func readUntil(_ marker: String, from handle: FileHandle) async -> Bool {
        await withCheckedContinuation { continuation in
            Thread {
                var seen = Data()
                while true {
                    let chunk = handle.availableData
                    if chunk.isEmpty { continuation.resume(returning: false); return }
                    seen.append(chunk)
                    if String(decoding: seen, as: UTF8.self).contains(marker) { continuation.resume(returning: true); return }
                }
            }.start()
        }
    }
}
