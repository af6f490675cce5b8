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
        for statement in statements {
            do {
                try await connection.query(statement)
            } catch where ["23505", "42P07"].contains(error.sqlState ?? "") {
                // Another replica created it at the same moment (CREATE ... IF NOT EXISTS races
                // on the catalog's unique index): it exists now.
            }
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
}
