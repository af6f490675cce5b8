#if Postgres
import Foundation
import PostgresTestSupport
import Testing
import TokenKitPostgres
import TokenKitStore

/// The `_keys` row gate (issue 24 item 6): the salt and scrypt cost are authenticated with the
/// passphrase-derived key, kept within the file store's range, and a row from an earlier
/// release (no check) is accepted only at the file store's default work factor, then stamped.
@Suite("PostgreSQL key parameters: authenticated, bounded, migrated")
struct PostgresKeyParametersTests {
    let key = try! CredentialKey(service: "com.example.api", account: "alice")

    /// A table with one credential written by a store with the test passphrase.
    func seeded(_ label: String) async throws -> (PostgresEndpoint, String) {
        let endpoint = try PostgresTestServer.main()
        let table = uniqueTable(label)
        let store = PostgresTokenStore(endpoint: endpoint, key: try testKey(), options: try testOptions(table: table))
        try await store.save(Credential(secret: [1, 2, 3]), for: key)
        await store.close()
        return (endpoint, table)
    }

    /// The error a fresh store with the test passphrase gets when it opens `table`.
    func openingError(_ endpoint: PostgresEndpoint, _ table: String, passphrase: String = "correct horse") async throws -> TokenStoreError? {
        let store = PostgresTokenStore(endpoint: endpoint, key: try testKey(passphrase), options: try testOptions(table: table))
        defer { Task { await store.close() } }
        do {
            _ = try await store.load(key)
            return nil
        } catch {
            return error
        }
    }

    @Test("a changed salt, cost or check is refused as tampered, before anything is read or written", arguments: [
        "UPDATE %@_keys SET scrypt_log_n = 1",
        "UPDATE %@_keys SET scrypt_r = 1",
        "UPDATE %@_keys SET scrypt_p = 2",
        "UPDATE %@_keys SET salt = set_byte(salt, 0, get_byte(salt, 0) # 1)",
        "UPDATE %@_keys SET parameters_check = set_byte(parameters_check, 0, get_byte(parameters_check, 0) # 1)",
    ])
    func tamperedRow(statement: String) async throws {
        let (endpoint, table) = try await seeded("tamper")
        try await PostgresTestServer.psql(statement.replacingOccurrences(of: "%@", with: table))
        let error = try await openingError(endpoint, table)
        #expect(error?.code == .wrongPassphrase, "\(String(describing: error))")
        #expect(error?.message.contains("tampered") == true, "\(error?.message ?? "")")
        await #expect(try PostgresTestServer.psql("SELECT count(*) FROM \(table)") == "1")
    }

    @Test("a cost outside the file store's range is refused even before the check", arguments: [
        "UPDATE %@_keys SET scrypt_log_n = 0", "UPDATE %@_keys SET scrypt_log_n = 31", "UPDATE %@_keys SET scrypt_p = 17",
    ])
    func costOutOfRange(statement: String) async throws {
        let (endpoint, table) = try await seeded("range")
        try await PostgresTestServer.psql(statement.replacingOccurrences(of: "%@", with: table))
        let error = try await openingError(endpoint, table)
        #expect(error?.code == .corrupted, "\(String(describing: error))")
        #expect(error?.message.contains("not acceptable") == true, "\(error?.message ?? "")")
    }

    @Test("an older release's row (no check) below the file store's default work factor is refused, naming the migration")
    func legacyBelowMinimum() async throws {
        let (endpoint, table) = try await seeded("legacylow")
        // What an earlier release left: the same row without its check.
        try await PostgresTestServer.psql("UPDATE \(table)_keys SET parameters_check = NULL")
        let error = try await openingError(endpoint, table)
        #expect(error?.code == .corrupted)
        #expect(error?.message.contains("below the minimum") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("Upgrading a table") == true)
        await #expect(try PostgresTestServer.psql("SELECT parameters_check IS NULL FROM \(table)_keys") == "t")
    }

    @Test("an older release's table at the default work factor opens, and is stamped with its check once")
    func legacyMigrated() async throws {
        let endpoint = try PostgresTestServer.main()
        let table = uniqueTable("legacy")
        // The schema and row exactly as the previous release created them.
        try await PostgresTestServer.psql("""
            CREATE TABLE \(table) (service text NOT NULL, account text NOT NULL, kind text NOT NULL, key_id text NOT NULL,
                nonce bytea NOT NULL, ciphertext bytea NOT NULL, secret_size integer NOT NULL, expires_at double precision,
                created_at double precision NOT NULL, updated_at double precision NOT NULL, version bigint NOT NULL,
                PRIMARY KEY (service, account));
            CREATE TABLE \(table)_keys (id integer PRIMARY KEY CHECK (id = 1), salt bytea NOT NULL,
                scrypt_log_n integer NOT NULL, scrypt_r integer NOT NULL, scrypt_p integer NOT NULL);
            INSERT INTO \(table)_keys VALUES (1, decode(md5('\(table)') || md5('salt'), 'hex'), 15, 8, 1)
            """)
        let store = PostgresTokenStore(endpoint: endpoint, key: try testKey(), options: try testOptions(table: table))
        try await store.save(Credential(secret: [4, 5]), for: key)
        await #expect(try PostgresTestServer.psql("SELECT parameters_check IS NOT NULL FROM \(table)_keys") == "t")
        await store.close()
        // From now on the row is checked: a wrong passphrase is refused, the right one opens it.
        let wrong = try await openingError(endpoint, table, passphrase: "battery staple")
        #expect(wrong?.code == .wrongPassphrase)
        #expect(try await openingError(endpoint, table) == nil)
    }

    @Test("an older release's row is not stamped by a passphrase that opens none of the table's credentials")
    func legacyNotStampedByAStranger() async throws {
        let (endpoint, table) = try await seeded("legacyforeign")
        try await PostgresTestServer.psql("UPDATE \(table)_keys SET parameters_check = NULL, scrypt_log_n = 15")
        // The row's key id was made at 2^4: at 2^15 nobody's key id matches it, so no one may stamp.
        let error = try await openingError(endpoint, table)
        #expect(error?.code == .wrongPassphrase)
        await #expect(try PostgresTestServer.psql("SELECT parameters_check IS NULL FROM \(table)_keys") == "t")
    }

    @Test("key rotation re-stamps the check with the new key; then the old key alone is refused")
    func rotationRestamps() async throws {
        let (endpoint, table) = try await seeded("rekey")
        let checkBefore = try await PostgresTestServer.psql("SELECT encode(parameters_check, 'hex') FROM \(table)_keys")
        let rotated = PostgresTokenStore(
            endpoint: endpoint, key: try testKey("new passphrase"), options: try testOptions(table: table, previousKeys: [try testKey()]))
        #expect(try await rotated.load(key)?.secret == [1, 2, 3])
        try await rotated.save(Credential(secret: [1, 2, 3]), for: key)  // re-encrypted under the new key
        await rotated.close()
        await #expect(try PostgresTestServer.psql("SELECT encode(parameters_check, 'hex') FROM \(table)_keys") != checkBefore)
        #expect(try await openingError(endpoint, table, passphrase: "new passphrase") == nil)
        #expect(try await openingError(endpoint, table)?.code == .wrongPassphrase)
    }

    @Test("delete never removes a row encrypted under a key this store cannot read, even when the table's key parameters verify")
    func deleteRefusesForeignRow() async throws {
        let (endpoint, table) = try await seeded("foreigndelete")
        try await PostgresTestServer.psql("UPDATE \(table) SET key_id = 'ffffffffffffffff'")
        let store = PostgresTokenStore(endpoint: endpoint, key: try testKey(), options: try testOptions(table: table))
        let error = await #expect(throws: TokenStoreError.self) { try await store.delete(key) }
        #expect(error?.code == .wrongPassphrase)
        #expect(error?.message.contains("not deleted") == true)
        await #expect(try PostgresTestServer.psql("SELECT count(*) FROM \(table)") == "1")
        await store.close()
    }
}
#endif
