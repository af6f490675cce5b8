import Foundation
internal import TokenKitCrypto
import TokenKitStore

/// Creates the credential table and its `_keys` companion on first use (idempotently, also
/// when several replicas start at once) and reads the key-derivation salt and scrypt cost.
///
/// Columns of the credential table: `service`, `account` (primary key), `kind`, `key_id`,
/// `nonce`, `ciphertext` (AES-256-GCM ciphertext and tag of the secret), `secret_size`,
/// `expires_at`, `created_at`, `updated_at` (Unix seconds) and `version` (incremented by
/// every write; compare-and-swap writes only over the version it read).
enum PostgresSchema {
    /// The salt and scrypt cost shared by every client of one table.
    struct KeyParameters: Sendable {
        let salt: [UInt8]
        let cost: Scrypt.Parameters
    }

    /// Runs on the session's connection.
    static func prepare(_ connection: PGConnection, table: PostgresTableName, newCost: Scrypt.Parameters, salt: [UInt8]) async throws(PGError) -> KeyParameters {
        let statements = [
            """
            CREATE TABLE IF NOT EXISTS \(table.quoted) (
                service text NOT NULL,
                account text NOT NULL,
                kind text NOT NULL,
                key_id text NOT NULL,
                nonce bytea NOT NULL,
                ciphertext bytea NOT NULL,
                secret_size integer NOT NULL,
                expires_at double precision,
                created_at double precision NOT NULL,
                updated_at double precision NOT NULL,
                version bigint NOT NULL,
                PRIMARY KEY (service, account))
            """,
            """
            CREATE TABLE IF NOT EXISTS \(table.keysQuoted) (
                id integer PRIMARY KEY CHECK (id = 1),
                salt bytea NOT NULL,
                scrypt_log_n integer NOT NULL,
                scrypt_r integer NOT NULL,
                scrypt_p integer NOT NULL)
            """,
        ]
        // CREATE TABLE IF NOT EXISTS is not safe against itself: two sessions creating the same
        // table at once can fail on the catalog's unique indexes (23505, 42P07, or 42710 for the
        // table's row type). Replicas therefore create the schema one at a time, under a
        // transaction-scoped advisory lock named after the table, all in one DO block: one
        // round trip and one implicit transaction, so the lock is held only while the server
        // runs the block (never while a slow client sends its next statement) and ends with it.
        let lockID = try schemaLockID(table)
        let block = """
            DO $tokenkit_schema$ BEGIN
            PERFORM pg_advisory_xact_lock('\(lockID)'::bigint);
            \(statements.joined(separator: ";\n"));
            END $tokenkit_schema$
            """
        do {
            try await connection.query(block)
        } catch where ["23505", "42P07", "42710"].contains(error.sqlState ?? "") {
            // Created at the same moment by a client that does not take the lock: it exists now
            // (the catalog's unique check waited for that transaction to commit).
        }
        try await connection.query(
            "INSERT INTO \(table.keysQuoted) (id, salt, scrypt_log_n, scrypt_r, scrypt_p) VALUES (1, $1, $2::int8::int4, $3::int8::int4, $4::int8::int4) ON CONFLICT (id) DO NOTHING",
            [.bytes(salt), .int64(Int64(newCost.logN)), .int64(Int64(newCost.r)), .int64(Int64(newCost.p))])
        let rows = try await connection.query("SELECT salt, scrypt_log_n, scrypt_r, scrypt_p FROM \(table.keysQuoted) WHERE id = 1")
        guard let row = rows.first else {
            throw PGError(.protocolViolation, message: "\(table)_keys holds no key parameters")
        }
        let stored = try row.bytes(0), logN = try row.int32(1), r = try row.int32(2), p = try row.int32(3)
        guard stored.count >= 16, (1...30).contains(logN), r > 0, p > 0 else {
            throw PGError(.protocolViolation, message: "the key parameters in \(table)_keys are invalid")
        }
        return KeyParameters(salt: stored, cost: Scrypt.Parameters(logN: UInt8(logN), r: UInt32(r), p: UInt32(p)))
    }

    /// The advisory-lock id under which the schema of `table` is created: the first 8 bytes of
    /// SHA-256("tokenkit schema" 0 table), as a signed integer (a namespace apart from the
    /// refresh locks' ids).
    static func schemaLockID(_ table: PostgresTableName) throws(PGError) -> Int64 {
        do { return try AdvisoryLockID.of(["tokenkit schema", table.rawValue]) } catch {
            throw PGError(.protocolViolation, message: "cannot hash the table name: \(error.message)")
        }
    }
}
