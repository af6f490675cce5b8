#if Postgres
import Foundation
import PostgresTestSupport
import Testing
@testable import TokenKitPostgres
import TokenKitStore
import TokenKitTestSupport

/// sslmode against the main server of scripts/with-postgres, which accepts TLS with a
/// certificate for localhost/127.0.0.1 signed by a throw-away CA (the server without TLS is
/// the restartable one: that test is in PostgresFailureTests, which owns it).
@Suite("PostgreSQL TLS (sslmode and sslrootcert)")
struct PostgresTLSTests {
    let key = try! CredentialKey(service: "com.example.api", account: "tls")

    /// The main server reached as `host` with `query` (sslmode=…).
    func main(host: String = "localhost", _ query: String) throws -> PostgresEndpoint {
        let base = try PostgresTestServer.main()
        return try PostgresEndpoint(
            url: "postgres://\(base.username)@\(host):\(base.port)/\(base.database)?\(query)",
            password: PostgresTestServer.environment["PGPASSWORD"])
    }

    /// Whether the server sees this session as TLS (pg_stat_ssl), asked over `endpoint`.
    func sessionUsesTLS(_ endpoint: PostgresEndpoint) async throws -> Bool {
        let session = PostgresSession(endpoint: endpoint, timeout: .seconds(5))
        let rows = try await session.run("reading pg_stat_ssl") { (connection) async throws(PGError) in
            try await connection.query("SELECT ssl::text FROM pg_stat_ssl WHERE pid = pg_backend_pid()")
        }
        await session.close(permanently: true)
        return try rows.first?.text(0) == "true"
    }

    @Test("verify-full with sslrootcert: the certificate and host name check out, the session is encrypted, the store works")
    func verifyFull() async throws {
        let ca = try PostgresTestServer.certificateAuthority()
        let endpoint = try main("sslmode=verify-full&sslrootcert=\(ca)")
        #expect(try await sessionUsesTLS(endpoint))
        let store = PostgresTokenStore(endpoint: endpoint, key: try testKey(), options: try testOptions(table: uniqueTable("tls")))
        try await store.save(Credential(secret: Array("over-tls".utf8)), for: key)
        #expect(try await store.load(key)?.secret == Array("over-tls".utf8))
        await store.close()
        #expect(try await sessionUsesTLS(try main(host: "127.0.0.1", "sslmode=verify-ca&sslrootcert=\(ca)")))
    }

    @Test("verify-full refuses a server whose certificate the trust store does not vouch for, naming TLS")
    func verifyFullUntrusted() async throws {
        let store = PostgresTokenStore(endpoint: try main("sslmode=verify-full"), key: try testKey(), options: try testOptions(table: "t"))
        let error = await #expect(throws: TokenStoreError.self) { try await store.load(key) }
        #expect(error?.code == .io)
        #expect(error?.message.contains("cannot connect to PostgreSQL") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("TLS") == true, "\(error?.message ?? "")")
    }

    /// Why connecting over `endpoint` failed (it must fail), for the sslmode pins below.
    func refusal(_ endpoint: PostgresEndpoint) async throws -> String {
        let store = PostgresTokenStore(endpoint: endpoint, key: try testKey(), options: try testOptions(table: "t"))
        defer { Task { await store.close() } }
        let error = await #expect(throws: TokenStoreError.self) { try await store.load(key) }
        #expect(error?.code == .io)
        return error?.message ?? ""
    }

    @Test("verify-full checks the host name: the server's certificate names localhost, so reaching it as 127.0.0.1 is refused while verify-ca accepts it")
    func verifyFullChecksHostName() async throws {
        let ca = try PostgresTestServer.certificateAuthority()
        let message = try await refusal(try main(host: "127.0.0.1", "sslmode=verify-full&sslrootcert=\(ca)"))
        #expect(message.contains("TLS failed: the server's certificate does not name the host"), "\(message)")
        #expect(try await sessionUsesTLS(try main(host: "127.0.0.1", "sslmode=verify-ca&sslrootcert=\(ca)")))
    }

    @Test("verify-ca checks the chain: without sslrootcert the system trust store does not vouch for the test CA")
    func verifyCAChecksChain() async throws {
        let message = try await refusal(try main(host: "127.0.0.1", "sslmode=verify-ca"))
        #expect(message.contains("TLS"), "\(message)")
    }

    @Test("require with sslrootcert verifies the chain (as libpq does): a CA that did not sign the server's certificate is refused")
    func requireWithRootVerifiesChain() async throws {
        let dir = try PrivateTemporaryDirectory(prefix: "tokenkit-pg-ca")
        defer { withExtendedLifetime(dir) {} }
        let unrelated = dir.file("unrelated-ca.pem")
        let made = try await ChildProcess("/usr/bin/env", [
            "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1",
            "-subj", "/CN=an unrelated CA", "-keyout", dir.file("unrelated-ca.key"), "-out", unrelated,
        ]).run()
        try #require(made.status == 0, "openssl: \(made.stderrText)")
        let message = try await refusal(try main("sslmode=require&sslrootcert=\(unrelated)"))
        #expect(message.contains("TLS"), "\(message)")
        let ca = try PostgresTestServer.certificateAuthority()
        #expect(try await sessionUsesTLS(try main(host: "127.0.0.1", "sslmode=require&sslrootcert=\(ca)")))
    }

    @Test("require and prefer encrypt without verifying; disable stays plain")
    func unverifiedModes() async throws {
        #expect(try await sessionUsesTLS(try main("sslmode=require")))
        #expect(try await sessionUsesTLS(try main("sslmode=prefer")))
        #expect(try await !sessionUsesTLS(try main("sslmode=disable")))
    }
}
#endif
