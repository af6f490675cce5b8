#if Postgres
import PostgresTestSupport
import Testing
@testable import TokenKitPostgres
import PostgresNIO
import TokenKitStore

@Suite("PostgreSQL endpoint URLs")
struct PostgresEndpointTests {
    @Test("a full URL parses; the description never shows the password")
    func parses() throws {
        let endpoint = try PostgresEndpoint(url: "postgres://svc@db.internal:6543/tokens?sslmode=require", password: "hunter2-secret")
        #expect(endpoint.host == "db.internal")
        #expect(endpoint.port == 6543)
        #expect(endpoint.username == "svc")
        #expect(endpoint.database == "tokens")
        #expect(endpoint.tls == .require)
        #expect(!String(describing: endpoint).contains("hunter2"))
        let socket = try PostgresEndpoint(url: "postgresql://svc@/tokens?host=/run/postgresql", password: nil)
        #expect(socket.host == "/run/postgresql")
        #expect(socket.port == 5432)
        #expect(try PostgresEndpoint(url: "postgres://svc@localhost", password: nil).database == "svc")
    }

    @Test("an IPv6 literal host in brackets: the address without brackets, shown with them")
    func ipv6Literal() throws {
        let endpoint = try PostgresEndpoint(url: "postgres://u@[::1]:5432/db", password: nil)
        #expect(endpoint.host == "::1")
        #expect(endpoint.port == 5432)
        #expect(endpoint.description == "postgres://u@[::1]:5432/db")
        let full = try PostgresEndpoint(url: "postgres://u@[2001:db8::5]/db", password: nil)
        #expect(full.host == "2001:db8::5")
        #expect(full.port == 5432)
        #expect(throws: TokenStoreError.self) { try PostgresEndpoint(url: "postgres://u@[fe80::1%25eth0]/db", password: nil) }
    }

    @Test("bad URLs are refused with the reason, never echoing a password", arguments: [
        ("postgres://svc:hunter2@db/tokens", "must not contain a password"),
        ("mysql://svc@db/tokens", "postgres://"),
        ("postgres://db/tokens", "names no user"),
        ("postgres://svc@db/tokens?sslmode=sometimes", "unknown sslmode"),
        ("postgres://svc@db/tokens?application_name=x", "unsupported parameter"),
        ("postgres://svc@db:0/tokens", "port"),
    ])
    func refused(_ url: String, _ reason: String) {
        let error = #expect(throws: TokenStoreError.self) { try PostgresEndpoint(url: url, password: nil) }
        #expect(error?.message.contains(reason) == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("hunter2") == false)
    }
}

@Suite("PostgreSQL endpoint URLs: TLS settings and hostile input")
struct PostgresEndpointStrictTests {
    @Test("sslrootcert is read with a verifying sslmode; every sslmode is recognised")
    func rootCertificate() throws {
        let verified = try PostgresEndpoint(url: "postgres://svc@db/tokens?sslmode=verify-full&sslrootcert=/etc/ssl/db-ca.pem", password: nil)
        #expect(verified.tls == .verifyFull)
        #expect(verified.rootCertificate == "/etc/ssl/db-ca.pem")
        #expect(try PostgresEndpoint(url: "postgres://svc@db/t?sslmode=require&sslrootcert=system", password: nil).rootCertificate == "system")
        let modes: [(String, PostgresEndpoint.TLSMode)] = [
            ("disable", .disable), ("prefer", .prefer), ("require", .require), ("verify-ca", .verifyCA), ("verify-full", .verifyFull),
        ]
        for (text, mode) in modes {
            #expect(try PostgresEndpoint(url: "postgres://svc@db/t?sslmode=\(text)", password: nil).tls == mode)
        }
        #expect(try PostgresEndpoint(url: "postgres://svc@db/t", password: nil).tls == .disable)
    }

    @Test("hostile or ambiguous URLs are refused with a reason, never crashing", arguments: [
        ("postgres://svc@db/t?sslmode=require&sslmode=disable", "appears twice"),
        ("postgres://svc@db/t?sslrootcert=ca.pem&sslmode=verify-full", "absolute file path"),
        ("postgres://svc@db/t?sslmode=disable&sslrootcert=/ca.pem", "sslrootcert needs sslmode"),
        ("postgres://svc@db/t?host=relative/dir", "absolute socket directory"),
        ("postgres://svc@db/t\u{0}x", "control characters"),
        ("postgres://svc@db/t\nsslmode=disable", "control characters"),
        ("postgres://svc@db/" + String(repeating: "a", count: 3000), "longer than 2048"),
        ("postgres://svc@db:99999999999999999999999/t", "port must be 1 to 65535"),
        ("postgres://svc@db:65536/t", "port must be 1 to 65535"),
        ("postgres://svc@db:-1/t", "postgres://"),
        ("postgres://svc@:5432/t", "names no host"),
        ("", "postgres://"),
        ("postgres://%zz@db/t", "percent-encoding"),
        ("postgres://svc@db/t%ff%fe", "percent-encoding"),
    ])
    func hostile(_ url: String, _ reason: String) {
        let error = #expect(throws: TokenStoreError.self) { try PostgresEndpoint(url: url, password: "pw-secret") }
        #expect(error?.code == .backend)
        #expect(error?.message.contains(reason) == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("pw-secret") == false)
    }

    @Test("sslmode maps to postgres-nio's TLS: disable is plain, prefer may fall back, the rest insist on TLS")
    func tlsMapping() throws {
        func tls(_ query: String) throws -> PostgresConnection.Configuration.TLS {
            try PostgresEndpoint(url: "postgres://svc@db.internal/t?\(query)", password: nil)
                .configuration(timeout: .seconds(5), settings: []).tls
        }
        #expect(try !tls("sslmode=disable").isAllowed)
        #expect(try tls("sslmode=prefer").isAllowed && !tls("sslmode=prefer").isEnforced)
        for mode in ["require", "verify-ca", "verify-full"] {
            #expect(try tls("sslmode=\(mode)").isEnforced, "\(mode)")
        }
        let missing = #expect(throws: PGError.self) { try tls("sslmode=verify-full&sslrootcert=/nonexistent/ca.pem") }
        #expect(missing?.message.contains("cannot load the TLS settings") == true, "\(missing?.message ?? "")")
    }

    @Test("a Unix socket directory connects to its .s.PGSQL.PORT file, without TLS")
    func unixSocket() throws {
        let endpoint = try PostgresEndpoint(url: "postgres://svc@/t?host=/run/postgresql", password: nil)
        let configuration = try endpoint.configuration(timeout: .seconds(5), settings: [])
        #expect(configuration.unixSocketPath == "/run/postgresql/.s.PGSQL.5432")
        #expect(!configuration.tls.isAllowed)
    }
}
#endif
