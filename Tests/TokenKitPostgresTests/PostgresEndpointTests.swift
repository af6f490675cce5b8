import PostgresTestSupport
import Testing
import TokenKitPostgres
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
