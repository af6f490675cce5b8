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

    @Test("a holder whose host vanishes (no FIN, no RST, silence) loses the lock to a waiter once its session was silent for its holderSilence")
    func vanishedHolder() async throws {
        let endpoint = try PostgresTestServer.main()
        let relay = try BlackholeRelay(upstreamPort: endpoint.port)
        defer { relay.close() }
        var throughRelay = endpoint
        throughRelay.port = relay.port
        let namespace = uniqueTable("vanish")
        let key = try CredentialKey(service: "svc", account: "a")
        // The holder's lock asks the server to end its session after 5 s of silence (the
        // default, 60 s, works the same way and is pinned below; this keeps the test short).
        let silence = Duration.seconds(5)
        let holderLock = PostgresRefreshLock(endpoint: throughRelay, namespace: namespace, timeout: .seconds(10), holderSilence: silence)
        let held = try await holderLock.acquire(for: key)
        defer { held.release() }
        relay.vanish()
        let vanished = ContinuousClock.now
        // The server hears nothing more from the holder; it ends the silent session
        // (idle_session_timeout) and the waiter, allowed 60 s, gets the lock: not before the
        // silence (less the heartbeat: the holder's last statement may precede the vanishing
        // by that much), and well within the wait.
        let next = try await PostgresRefreshLock(endpoint: endpoint, namespace: namespace, timeout: .seconds(60)).acquire(for: key)
        let waited = ContinuousClock.now - vanished
        next.release()
        #expect(waited >= silence - holderLock.heartbeat - .seconds(1), "got the lock after \(waited)")
        #expect(waited < silence + .seconds(30), "got the lock after \(waited)")
    }

    @Test("a live holder keeps the lock past its holderSilence: its heartbeat shows the server it is alive")
    func heartbeatKeepsTheLock() async throws {
        let endpoint = try PostgresTestServer.main()
        let namespace = uniqueTable("heartbeat")
        let key = try CredentialKey(service: "svc", account: "a")
        let held = try await PostgresRefreshLock(endpoint: endpoint, namespace: namespace, timeout: .seconds(10), holderSilence: .seconds(3))
            .acquire(for: key)
        defer { held.release() }
        try await Task.sleep(for: .seconds(5))
        // Still held after more than its silence: a waiter times out.
        let error = await #expect(throws: TokenStoreError.self) {
            _ = try await PostgresRefreshLock(endpoint: endpoint, namespace: namespace, timeout: .seconds(1)).acquire(for: key)
        }
        #expect(error?.code == .lock, "\(String(describing: error))")
    }

    @Test("the lock's sessions ask the server to end a silent holder and to probe the connection")
    func sessionSettings() {
        let endpoint = PostgresEndpoint(host: "127.0.0.1", username: "u", password: nil, database: "d")
        let lock = PostgresRefreshLock(endpoint: endpoint)
        let settings = Dictionary(uniqueKeysWithValues: PostgresRefreshLock.sessionSettings(lockTimeout: .seconds(45), holderSilence: lock.holderSilence))
        #expect(settings["lock_timeout"] == "45000")
        #expect(settings["idle_session_timeout"] == "60000")
        // The default keeps the promise: a frozen holder releases within 90 s.
        #expect(lock.holderSilence == .seconds(60) && lock.holderSilence <= .seconds(90) - lock.heartbeat)
        #expect(lock.heartbeat * 3 <= lock.holderSilence)
        #expect(settings["tcp_keepalives_idle"] != nil && settings["tcp_user_timeout"] != nil)
        let short = PostgresRefreshLock(endpoint: endpoint, holderSilence: .seconds(5))
        #expect(Dictionary(uniqueKeysWithValues: PostgresRefreshLock.sessionSettings(lockTimeout: .seconds(1), holderSilence: short.holderSilence))["idle_session_timeout"] == "5000")
        #expect(short.heartbeat * 3 <= short.holderSilence)
    }

    @Test("a holder silence outside 3 s ... 1 hour is clamped to the nearer end", arguments: [
        (Duration.zero, Duration.seconds(3)), (.seconds(-10), .seconds(3)), (.milliseconds(2999), .seconds(3)),
        (.seconds(3), .seconds(3)), (.seconds(3600), .seconds(3600)), (.seconds(3601), .seconds(3600)), (.seconds(Int64.max), .seconds(3600)),
    ])
    func holderSilenceClamped(given: Duration, kept: Duration) {
        let endpoint = PostgresEndpoint(host: "127.0.0.1", username: "u", password: nil, database: "d")
        #expect(PostgresRefreshLock(endpoint: endpoint, holderSilence: given).holderSilence == kept)
    }
}
#endif
