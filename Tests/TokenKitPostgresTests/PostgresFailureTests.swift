#if Postgres
import Foundation
import PostgresTestSupport
import TokenKitTestSupport
import Testing
import TokenKitPostgres
import TokenKitStore

/// Unreachable servers, wrong passwords and a server restart: clear errors, then recovery.
@Suite("PostgreSQL failures and recovery", .serialized)
struct PostgresFailureTests {
    let key = try! CredentialKey(service: "com.example.api", account: "alice")

    @Test("an unreachable server fails fast with an io error naming the server")
    func unreachable() async throws {
        let endpoint = PostgresEndpoint(host: "127.0.0.1", port: 1, username: "nobody", password: "pw-secret", database: "x")
        let store = PostgresTokenStore(endpoint: endpoint, key: try testKey(), options: try testOptions(table: "t"))
        let started = ContinuousClock.now
        let error = await #expect(throws: TokenStoreError.self) { try await store.load(key) }
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(error?.code == .io)
        #expect(error?.message.contains("cannot connect to PostgreSQL at postgres://nobody@127.0.0.1:1/x") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("pw-secret") == false)
        let lockError = await #expect(throws: TokenStoreError.self) { _ = try await PostgresRefreshLock(endpoint: endpoint).acquire(for: key) }
        #expect(lockError?.code == .lock)
        #expect(lockError?.message.contains("cannot connect") == true)
    }

    @Test("a wrong database password is reported as a refused login, without the password")
    func wrongPassword() async throws {
        var endpoint = try PostgresTestServer.main()
        endpoint = PostgresEndpoint(
            host: endpoint.host, port: endpoint.port, username: endpoint.username, password: "wrong-pw-secret", database: endpoint.database)
        let store = PostgresTokenStore(endpoint: endpoint, key: try testKey(), options: try testOptions(table: uniqueTable("pw")))
        let error = await #expect(throws: TokenStoreError.self) { try await store.load(key) }
        #expect(error?.code == .io)
        #expect(error?.message.contains("refused the login") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("wrong-pw-secret") == false)
    }

    @Test("a server that accepts the connection but never answers: store and lock fail within their bounds, not hang")
    func silentServer() async throws {
        let silent = try SilentListener()
        defer { silent.close() }
        let endpoint = PostgresEndpoint(host: "127.0.0.1", port: silent.port, username: "nobody", password: "pw-secret", database: "x")
        let store = PostgresTokenStore(endpoint: endpoint, key: try testKey(), options: try testOptions(table: "t", timeout: .seconds(2)))
        var started = ContinuousClock.now
        let error = await #expect(throws: TokenStoreError.self) { try await store.load(key) }
        #expect(ContinuousClock.now - started < .seconds(6))
        #expect(error?.code == .io)
        #expect(error?.message.contains("cannot connect to PostgreSQL at postgres://nobody@127.0.0.1:\(silent.port)/x") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("pw-secret") == false)
        started = ContinuousClock.now
        let lockError = await #expect(throws: TokenStoreError.self) {
            _ = try await PostgresRefreshLock(endpoint: endpoint, timeout: .seconds(2)).acquire(for: key)
        }
        #expect(ContinuousClock.now - started < .seconds(6))
        #expect(lockError?.code == .lock)
    }

    @Test("against a server without TLS, sslmode=require fails clearly and prefer falls back to plain text")
    func serverWithoutTLS() async throws {
        let base = try PostgresTestServer.restartable()
        func endpoint(_ mode: String) throws -> PostgresEndpoint {
            try PostgresEndpoint(
                url: "postgres://\(base.username)@\(base.host):\(base.port)/\(base.database)?sslmode=\(mode)",
                password: PostgresTestServer.environment["PGPASSWORD"])
        }
        let required = PostgresTokenStore(endpoint: try endpoint("require"), key: try testKey(), options: try testOptions(table: "t"))
        let error = await #expect(throws: TokenStoreError.self) { try await required.load(key) }
        #expect(error?.code == .io)
        #expect(error?.message.contains("does not accept TLS") == true, "\(error?.message ?? "")")
        let preferred = PostgresTokenStore(endpoint: try endpoint("prefer"), key: try testKey(), options: try testOptions(table: uniqueTable("prefer")))
        try await preferred.save(Credential(secret: [1]), for: key)
        #expect(try await preferred.load(key)?.secret == [1])
        await preferred.close()
    }

    @Test("PostgreSQL stopped and restarted mid-run: clear errors during, recovery after, nothing lost")
    func restart() async throws {
        let endpoint = try PostgresTestServer.restartable()
        let table = uniqueTable("restart")
        let store = PostgresTokenStore(endpoint: endpoint, key: try testKey(), options: try testOptions(table: table, timeout: .seconds(5)))
        let lock = PostgresRefreshLock(endpoint: endpoint, namespace: table, timeout: .seconds(5))
        var written: [CredentialKey: [UInt8]] = [:]
        for i in 0..<20 {
            let entry = try CredentialKey(service: "restart", account: "a\(i)")
            written[entry] = Array("value-\(i)".utf8)
            try await store.save(Credential(secret: Array("value-\(i)".utf8)), for: entry)
        }
        let counter = try CredentialKey(service: "restart", account: "counter")
        try await store.save(Credential(secret: Array("1".utf8)), for: counter)

        try await PostgresTestServer.control("stop")
        var failures: [TokenStoreError] = []
        do {
            for operation in 0..<3 {
                let started = ContinuousClock.now
                do {
                    switch operation {
                    case 0: _ = try await store.load(counter)
                    case 1: try await store.save(Credential(secret: [9]), for: counter)
                    default: _ = try await store.accounts(service: "restart")
                    }
                    Issue.record("operation \(operation) succeeded while the server was down")
                } catch {
                    failures.append(error)
                }
                #expect(ContinuousClock.now - started < .seconds(7), "a call while the server is down must fail within its timeout")
            }
            let lockError = await #expect(throws: TokenStoreError.self) { _ = try await lock.acquire(for: counter) }
            #expect(lockError?.code == .lock)
        }
        try await PostgresTestServer.control("start")
        #expect(failures.count == 3)
        for failure in failures {
            #expect(failure.code == .io || failure.code == .timeout)
            #expect(failure.message.contains("PostgreSQL at \(endpoint)"), "\(failure.message)")
        }
        // Recovery without a new store: the same instance reconnects by itself.
        let current = try #require(try await store.load(counter))
        #expect(current.secret == Array("1".utf8), "the failed save while down must not have landed")
        #expect(try await store.replace(counter, expected: current, with: Credential(secret: Array("2".utf8))))
        for (entry, value) in written {
            #expect(try await store.load(entry)?.secret == value)
        }
        #expect(try await store.accounts(service: "restart").count == 21)
        let lease = try await lock.acquire(for: counter)
        lease.release()
        await store.close()
    }
}
#endif
