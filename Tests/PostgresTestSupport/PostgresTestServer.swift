#if Postgres
import Foundation
import Testing
import TokenKitPostgres
import TokenKitStore
import TokenKitTestSupport

/// Test support shared by every test target that needs PostgreSQL (not shipped).
///
/// The private PostgreSQL servers that `scripts/with-postgres` starts. Without them a test
/// is skipped with a visible message, or fails when TOKENKIT_REQUIRE_POSTGRES=1 (CI).
public enum PostgresTestServer {
    public static var environment: [String: String] { ProcessInfo.processInfo.environment }

    /// The main server (never stopped by tests).
    public static func main() throws -> PostgresEndpoint {
        try endpoint(from: "TOKENKIT_TEST_POSTGRES_URL")
    }

    /// The second server, which ``stop()`` and ``start()`` control (the restart tests only).
    public static func restartable() throws -> PostgresEndpoint {
        try endpoint(from: "WITH_POSTGRES_RESTART_URL")
    }

    /// The PEM file of the CA that signed the main server's TLS certificate (for `localhost`
    /// and 127.0.0.1).
    public static func certificateAuthority() throws -> String {
        try required("WITH_POSTGRES_CA_FILE")
    }

    public static func endpoint(from variable: String) throws -> PostgresEndpoint {
        try PostgresEndpoint(url: try required(variable), password: environment["PGPASSWORD"])
    }

    /// The value of `variable`; skips the test (or fails it under TOKENKIT_REQUIRE_POSTGRES=1)
    /// when it is not set.
    static func required(_ variable: String) throws -> String {
        let value = environment[variable]
        try ServiceGate.require(
            value != nil, otherwise: "\(variable) is not set; run under scripts/with-postgres", requiredBy: "TOKENKIT_REQUIRE_POSTGRES")
        return value ?? ""
    }

    /// Stops (`stop`) or starts (`start`) the restartable server; waits for pg_ctl (bounded by it).
    public static func control(_ action: String) async throws {
        guard let script = environment["WITH_POSTGRES_CONTROL"] else { throw Failed(what: "WITH_POSTGRES_CONTROL is not set") }
        let outcome = try await ChildProcess(script, [action], stdout: .discard, stderr: .inherit).run()
        guard outcome.status == 0 else { throw Failed(what: "\(script) \(action)") }
    }

    /// Runs `psql -tA -c SQL` against the main server and returns its output, trimmed.
    @discardableResult
    public static func psql(_ sql: String, url variable: String = "TOKENKIT_TEST_POSTGRES_URL") async throws -> String {
        guard let url = environment[variable] else { throw Failed(what: "\(variable) is not set") }
        let outcome = try await ChildProcess("/usr/bin/psql", ["-X", "-tA", "-v", "ON_ERROR_STOP=1", "-d", url, "-c", sql], stderr: .inherit)
            .run()
        guard outcome.status == 0 else { throw Failed(what: "psql -c \(sql)") }
        return outcome.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A cheap-to-open store on a fresh table of the main server.
    public static func freshStore(table: String) throws -> PostgresTokenStore {
        PostgresTokenStore(endpoint: try main(), key: try testKey(), options: try testOptions(table: table))
    }

    /// A helper step failed (the message names it).
    public struct Failed: Error, CustomStringConvertible {
        public let what: String
        public var description: String { "failed: \(what)" }
    }
}

/// A table name no other test uses.
public func uniqueTable(_ label: String) -> String {
    "t_\(label)_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()
}

/// A cheap passphrase key for tests (the scrypt cost is set per table with the options).
public func testKey(_ text: String = "correct horse") throws -> FileStoreKey {
    try FileStoreKey.passphrase(text)
}

/// Options for a fresh table with a cheap scrypt cost.
public func testOptions(table: String, previousKeys: [FileStoreKey] = [], timeout: Duration = .seconds(5)) throws -> PostgresTokenStore.Options {
    .init(table: try PostgresTableName(table), previousKeys: previousKeys, scryptCost: ScryptCost(logN: 4, r: 8, p: 1), timeout: timeout)
}
#endif
