#if Postgres
import Foundation
import PostgresTestSupport
import Testing
@testable import TokenKitPostgres
import TokenKitStore

/// The advisory-lock RefreshLock in one process (the cross-process and SIGKILL tests run
/// real processes in TokenKitAuthTests).
@Suite("PostgreSQL refresh lock")
struct PostgresRefreshLockTests {
    @Test("two different credentials never block each other")
    func differentKeys() async throws {
        let endpoint = try PostgresTestServer.main()
        // The timeout also bounds connecting (a TLS handshake in a debug build, beside other
        // suites): 10 s. `b` is taken while `a` is still held, so had they blocked each other
        // this would throw `.lock` ("timed out") instead of returning.
        let lock = PostgresRefreshLock(endpoint: endpoint, namespace: uniqueTable("lock"), timeout: .seconds(10))
        let a = try CredentialKey(service: "svc", account: "a"), b = try CredentialKey(service: "svc", account: "b")
        let held = try await lock.acquire(for: a)
        let other = try await lock.acquire(for: b)
        other.release()
        held.release()
    }

    @Test("the same credential waits for the holder, gets the lock as soon as it is released, and times out otherwise")
    func sameKey() async throws {
        let endpoint = try PostgresTestServer.main()
        let namespace = uniqueTable("lock")
        let lock = PostgresRefreshLock(endpoint: endpoint, namespace: namespace, timeout: .seconds(1))
        let key = try CredentialKey(service: "svc", account: "a")
        let held = try await lock.acquire(for: key)
        let started = ContinuousClock.now
        let error = await #expect(throws: TokenStoreError.self) { _ = try await lock.acquire(for: key) }
        #expect(error?.code == .lock)
        #expect(error?.message.contains("timed out") == true)
        #expect(ContinuousClock.now - started >= .milliseconds(900))
        let patient = PostgresRefreshLock(endpoint: endpoint, namespace: namespace, timeout: .seconds(20))
        async let waiter = patient.acquire(for: key)
        try await Task.sleep(for: .milliseconds(300))
        let released = ContinuousClock.now
        held.release()
        let next = try await waiter
        #expect(ContinuousClock.now - released < .seconds(3))
        next.release()
    }

    @Test("a holder whose database session ends (killed, disconnected) releases the lock at once")
    func sessionEnds() async throws {
        let endpoint = try PostgresTestServer.main()
        let namespace = uniqueTable("lock")
        let lock = PostgresRefreshLock(endpoint: endpoint, namespace: namespace, timeout: .seconds(8))
        let key = try CredentialKey(service: "svc", account: "a")
        let held = try await lock.acquire(for: key)
        defer { held.release() }
        // End the holder's backend from outside, as when its host dies (a bigint advisory
        // key shows in pg_locks as classid = high 32 bits, objid = low 32 bits, objsubid 1).
        let id = UInt64(bitPattern: try PostgresRefreshLock.lockID(namespace: namespace, key: key))
        let terminated = try await PostgresTestServer.psql("""
            SELECT count(pg_terminate_backend(pid)) FROM pg_locks WHERE locktype = 'advisory' AND granted
            AND classid::bigint = \(id >> 32) AND objid::bigint = \(id & 0xFFFF_FFFF) AND objsubid = 1
            """)
        #expect(terminated == "1")
        let started = ContinuousClock.now
        let next = try await lock.acquire(for: key)
        #expect(ContinuousClock.now - started < .seconds(3))
        next.release()
    }

    @Test("a holder whose host vanishes (no FIN, no RST, silence) loses the lock to a waiter within 90 s")
    func vanishedHolder() async throws {
        let endpoint = try PostgresTestServer.main()
        let relay = try BlackholeRelay(upstreamPort: endpoint.port)
        defer { relay.close() }
        var throughRelay = endpoint
        throughRelay.port = relay.port
        let namespace = uniqueTable("vanish")
        let key = try CredentialKey(service: "svc", account: "a")
        let held = try await PostgresRefreshLock(endpoint: throughRelay, namespace: namespace, timeout: .seconds(10)).acquire(for: key)
        defer { held.release() }
        relay.vanish()
        // The server hears nothing more from the holder; it ends the silent session
        // (idle_session_timeout, 60 s) and the waiter, allowed 90 s, gets the lock.
        let next = try await PostgresRefreshLock(endpoint: endpoint, namespace: namespace, timeout: .seconds(90)).acquire(for: key)
        next.release()
    }

    @Test("the lock's sessions ask the server to end a silent holder and to probe the connection")
    func sessionSettings() {
        let settings = Dictionary(uniqueKeysWithValues: PostgresRefreshLock.sessionSettings(lockTimeout: .seconds(45)))
        #expect(settings["lock_timeout"] == "45000")
        #expect(settings["idle_session_timeout"] == "60000")
        #expect(PostgresRefreshLock.holderSilence <= .seconds(90) - PostgresRefreshLock.heartbeat)
        #expect(PostgresRefreshLock.heartbeat * 3 <= PostgresRefreshLock.holderSilence)
        #expect(settings["tcp_keepalives_idle"] != nil && settings["tcp_user_timeout"] != nil)
    }
}
#endif
