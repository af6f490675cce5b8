import ArgumentParser
import Foundation
import TokenKitStore
#if Postgres
import TokenKitPostgres
#endif

/// `--database-url URL`, `--database-password-file PATH`, `--database-table NAME`: the
/// PostgreSQL backend's connection, part of ``BackendOptions``. The password comes from the
/// file or `PGPASSWORD`, never from argv (a URL holding one is refused).
///
/// The backend exists only in a build with the `Postgres` package trait; the options are
/// parsed in every build, so that without it `--backend postgres` (from the flag,
/// `TOKENKIT_BACKEND` or a login's record) fails with ``notBuiltIn`` (exit 64) before anything
/// is read.
struct DatabaseOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The PostgreSQL server: postgres://USER@HOST:PORT/DATABASE[?sslmode=verify-full&sslrootcert=/ca.pem] (no password here).", valueName: "url"))
    var databaseURL: String?

    @Option(help: ArgumentHelp("A file whose first line is the database password (mode 0600: other users must not be able to read it; else $PGPASSWORD).", valueName: "path"))
    var databasePasswordFile: String?

    @Option(help: ArgumentHelp("The credential table (default: tokenkit_credentials).", valueName: "name"))
    var databaseTable: String?

    /// The environment variable holding the database password.
    static let passwordVariable = "PGPASSWORD"
    /// The largest database password file read (only its first line is used).
    static let maximumPasswordFileBytes = 64 * 1024

    /// The refusal of `--backend postgres` by a `tokenkit` built without the PostgreSQL
    /// backend (exit 64), naming the build option that adds it.
    static var notBuiltIn: CLIFailure {
        .usage("--backend postgres: this tokenkit was built without the PostgreSQL backend; build it with `swift build --traits Postgres` (README, \"Build options\")")
    }

    #if Postgres

    /// The store for these options, encrypted with `key`, and how to make its refresh lock for
    /// a given wait (the caller's `--timeout`).
    func open(key: FileStoreKey, scryptLogN: UInt8?, environment: [String: String]) throws -> (store: PostgresTokenStore, lock: @Sendable (Duration) -> any RefreshLock) {
        guard let databaseURL, !databaseURL.isEmpty else {
            throw CLIFailure.usage("--backend postgres needs --database-url postgres://USER@HOST:PORT/DATABASE")
        }
        let endpoint: PostgresEndpoint
        var options = PostgresTokenStore.Options()
        do {
            endpoint = try PostgresEndpoint(url: databaseURL, password: try password(environment: environment))
            if let databaseTable { options.table = try PostgresTableName(databaseTable) }
        } catch let error as TokenStoreError {
            throw CLIFailure.usage(error.message)
        }
        if let scryptLogN { options.scryptCost.logN = scryptLogN }
        let namespace = options.table.rawValue
        return (PostgresTokenStore(endpoint: endpoint, key: key, options: options),
                { PostgresRefreshLock(endpoint: endpoint, namespace: namespace, timeout: $0) })
    }

    /// The password: the first line of `--database-password-file` (a secret file: refused,
    /// exit 2, when other users may read it), else `PGPASSWORD`, else none.
    private func password(environment: [String: String]) throws -> String? {
        if let databasePasswordFile {
            var bytes = try SecretFileReading.read(databasePasswordFile, what: "database password file", limit: Self.maximumPasswordFileBytes)
            defer { for index in bytes.indices { bytes[index] = 0 } }
            var line = String(decoding: bytes.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
            if line.hasSuffix("\r") { line.removeLast() }
            guard !line.isEmpty else { throw CLIFailure.io("the database password file \(databasePasswordFile) has an empty first line") }
            return line
        }
        if let value = environment[Self.passwordVariable], !value.isEmpty { return value }
        return nil
    }
    #endif
}
