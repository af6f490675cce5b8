#if Postgres
import Foundation
internal import TokenKitCrypto
import TokenKitStore

/// Creates the credential table and its `_keys` companion on first use (idempotently, also
/// when several replicas start at once), and reads and writes the `_keys` row (the statements
/// only; what the row must be is ``PostgresKeyParameters``'s to decide).
///
/// Columns of the credential table: `service`, `account` (primary key), `kind`, `key_id`,
/// `nonce`, `ciphertext` (AES-256-GCM ciphertext and tag of the secret), `secret_size`,
/// `expires_at`, `created_at`, `updated_at` (Unix seconds) and `version` (incremented by
/// every write; compare-and-swap writes only over the version it read). Columns of the
/// `_keys` table: `id` (always 1), `salt`, `scrypt_log_n`, `scrypt_r`, `scrypt_p` and
/// `parameters_check` (issue 24: added to tables of earlier releases, `NULL` there until a
/// client that opens them stamps it).
enum PostgresSchema {
    /// The `_keys` row as stored.
    struct KeyRow: Sendable {
        let salt: [UInt8]
        let cost: Scrypt.Parameters
        /// `nil` for a row written by a release before the check existed.
        let parametersCheck: [UInt8]?
    }

    /// Creates the tables (and the `parameters_check` column of an older `_keys` table).
    static func prepare(_ connection: PGConnection, table: PostgresTableName) async throws(PGError) {
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
                scrypt_p integer NOT NULL,
                parameters_check bytea)
            """,
            "ALTER TABLE \(table.keysQuoted) ADD COLUMN IF NOT EXISTS parameters_check bytea",
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
    }

    /// The `_keys` row, or `nil` when the table has none yet. Values that cannot be scrypt
    /// parameters at all (negative, or beyond 8 bits for log2 N) are a protocol violation.
    static func keyRow(_ connection: PGConnection, table: PostgresTableName) async throws(PGError) -> KeyRow? {
        let rows = try await connection.query(
            "SELECT salt, scrypt_log_n, scrypt_r, scrypt_p, parameters_check FROM \(table.keysQuoted) WHERE id = 1")
        guard let row = rows.first else { return nil }
        let salt = try row.bytes(0), logN = try row.int32(1), r = try row.int32(2), p = try row.int32(3)
        guard (0...255).contains(logN), r >= 0, p >= 0 else {
            throw PGError(.protocolViolation, message: "the key parameters in \(table)_keys are invalid")
        }
        return KeyRow(
            salt: salt, cost: Scrypt.Parameters(logN: UInt8(logN), r: UInt32(r), p: UInt32(p)),
            parametersCheck: try row.optionalBytes(4))
    }

    /// Inserts the `_keys` row unless one exists (another client may have won the race).
    static func insertKeyRow(_ connection: PGConnection, table: PostgresTableName, _ row: KeyRow) async throws(PGError) {
        try await connection.query(
            """
            INSERT INTO \(table.keysQuoted) (id, salt, scrypt_log_n, scrypt_r, scrypt_p, parameters_check)
            VALUES (1, $1, $2::int8::int4, $3::int8::int4, $4::int8::int4, $5) ON CONFLICT (id) DO NOTHING
            """,
            [.bytes(row.salt), .int64(Int64(row.cost.logN)), .int64(Int64(row.cost.r)), .int64(Int64(row.cost.p)),
             row.parametersCheck.map(PGValue.bytes)])
    }

    /// Replaces the row's check by `check`, only while the row is exactly `row` (its salt, its
    /// cost and the check it had, `NULL` included): a concurrent change wins, and the caller
    /// reads the row again.
    static func stamp(_ connection: PGConnection, table: PostgresTableName, _ row: KeyRow, check: [UInt8]) async throws(PGError) {
        try await connection.query(
            """
            UPDATE \(table.keysQuoted) SET parameters_check = $1
            WHERE id = 1 AND salt = $2 AND scrypt_log_n = $3::int8::int4 AND scrypt_r = $4::int8::int4
                AND scrypt_p = $5::int8::int4 AND parameters_check IS NOT DISTINCT FROM $6
            """,
            [.bytes(check), .bytes(row.salt), .int64(Int64(row.cost.logN)), .int64(Int64(row.cost.r)), .int64(Int64(row.cost.p)),
             row.parametersCheck.map(PGValue.bytes)])
    }

    /// Whether the credential table holds a row encrypted under one of `keyIDs`, or no row at
    /// all (then nobody's credentials depend on the `_keys` row yet).
    static func isOpenable(_ connection: PGConnection, table: PostgresTableName, keyIDs: [String]) async throws(PGError) -> Bool {
        let rows = try await connection.query(
            """
            SELECT EXISTS (SELECT 1 FROM \(table.quoted) WHERE key_id = ANY(string_to_array($1, ',')))
                OR NOT EXISTS (SELECT 1 FROM \(table.quoted))
            """,
            [.text(keyIDs.joined(separator: ","))])
        guard let row = rows.first else { return false }
        return try row.bytes(0) == [1]
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
#endif
