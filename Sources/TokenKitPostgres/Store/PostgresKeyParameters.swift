#if Postgres
import Foundation
internal import TokenKitCrypto
import TokenKitStore

/// The one gate for a table's key-derivation parameters (the `_keys` row: salt and scrypt
/// cost): every store derives its keys through ``cipher(session:table:key:previous:newCost:)``.
///
/// Guarantees:
/// - The row is authenticated: its `parameters_check` is derived from the passphrase (or raw
///   key) under exactly these salt, cost and table name (``PostgresRowCipher``). A row whose
///   check does not verify — changed by someone without the passphrase, or opened with a wrong
///   one — is refused with ``TokenStoreError/Code/wrongPassphrase`` before anything is read or
///   written, so lowering the cost in the row never makes a client write key ids derived at
///   the lower cost (no cheap passphrase oracle).
/// - The cost is within the range the encrypted file store accepts (``Scrypt/Parameters/validate()``:
///   log2 N 1–30, r 1–64, p 1–16, at most 1 GiB and 2^23 work), else
///   ``TokenStoreError/Code/corrupted``.
/// - A row from an earlier release (no check) is accepted only with at least the file store's
///   default work factor (``legacyMinimum``, scrypt N=2^15 r=8 p=1) when a passphrase is used,
///   and only when this key opens the table's credentials (or the table holds none); it is
///   then stamped with its check, once. A weaker one is refused, naming the migration.
/// - A row checked with a previous key (a key rotation) is re-stamped with the current key.
///
/// Does not: protect a client of an earlier release (it does not read the check), or stop a
/// database writer from deleting the row (clients then fail to open the table's credentials).
enum PostgresKeyParameters {
    /// The least scrypt work a row without a check may ask for (the file store's default,
    /// ``ScryptCost/interactive``: N·r·p = 2^18).
    static let legacyMinimum = Scrypt.Parameters.interactive

    /// The cipher for `table`, creating the schema and the `_keys` row when missing (with
    /// `newCost` and a fresh random salt).
    static func cipher(
        session: PostgresSession, table: PostgresTableName, key: FileStoreKey, previous: [FileStoreKey], newCost: Scrypt.Parameters
    ) async throws(TokenStoreError) -> PostgresRowCipher {
        try await session.run("preparing table \(table)") { (connection) async throws(PGError) in
            try await PostgresSchema.prepare(connection, table: table)
        }
        // A few rounds at most: each is one read, and a write only when the row is created,
        // upgraded or re-stamped (then read again: a concurrent writer may have won).
        for _ in 0..<4 {
            guard let row = try await read(session, table) else {
                try await create(session: session, table: table, key: key, cost: newCost)
                continue
            }
            try validate(row.cost, table: table)
            let cipher = try PostgresRowCipher(key: key, previous: previous, salt: row.salt, cost: row.cost, table: table)
            guard let check = row.parametersCheck else {
                try requireLegacyMinimum(row.cost, key: key, table: table)
                let openable = try await session.run("reading table \(table)") { (connection) async throws(PGError) in
                    try await PostgresSchema.isOpenable(connection, table: table, keyIDs: cipher.readable.map(\.id))
                }
                guard openable else { throw wrongKey(table) }
                try await stamp(session, table, row, check: cipher.current.parametersCheck.bytes)
                continue
            }
            switch cipher.match(parametersCheck: check) {
            case .current:
                return cipher
            case .previous:
                try await stamp(session, table, row, check: cipher.current.parametersCheck.bytes)
                return cipher
            case .none:
                throw wrongKey(table)
            }
        }
        throw .backend("the key parameters in \(table)_keys kept changing while this client opened the table; try again")
    }

    /// The file store's range, checked before any derivation.
    static func validate(_ cost: Scrypt.Parameters, table: PostgresTableName) throws(TokenStoreError) {
        do { try cost.validate() } catch {
            throw .corrupted("the key parameters in \(table)_keys are not acceptable (\(error.message)): the row was modified; refused")
        }
    }

    /// Refuses a passphrase cost below ``legacyMinimum`` in a row that carries no check.
    static func requireLegacyMinimum(_ cost: Scrypt.Parameters, key: FileStoreKey, table: PostgresTableName) throws(TokenStoreError) {
        guard case .passphrase = key.material, cost.work < legacyMinimum.work else { return }
        throw .corrupted(
            "the key parameters in \(table)_keys have no integrity check and a work factor (\(cost)) below the minimum "
                + "\(legacyMinimum) for such a row: refused (a weakened row makes key ids a cheap passphrase oracle). "
                + "If your application created it with that cost, open the table with a release before issue 24 and copy "
                + "its credentials into a new table (see SECURITY.md, \"Upgrading a table\")")
    }

    private static func wrongKey(_ table: PostgresTableName) -> TokenStoreError {
        .wrongPassphrase(
            "this passphrase or key does not verify the key parameters of table \(table) (\(table)_keys): a wrong passphrase, "
                + "or the row was tampered with; refused, nothing read or written")
    }

    private static func read(_ session: PostgresSession, _ table: PostgresTableName) async throws(TokenStoreError) -> PostgresSchema.KeyRow? {
        try await session.run("reading \(table)_keys") { (connection) async throws(PGError) in
            try await PostgresSchema.keyRow(connection, table: table)
        }
    }

    private static func stamp(
        _ session: PostgresSession, _ table: PostgresTableName, _ row: PostgresSchema.KeyRow, check: [UInt8]
    ) async throws(TokenStoreError) {
        try await session.run("updating \(table)_keys") { (connection) async throws(PGError) in
            try await PostgresSchema.stamp(connection, table: table, row, check: check)
        }
    }

    /// Writes a new `_keys` row: a fresh 32-byte salt, `cost`, and its check under `key`.
    private static func create(session: PostgresSession, table: PostgresTableName, key: FileStoreKey, cost: Scrypt.Parameters) async throws(TokenStoreError) {
        try validate(cost, table: table)
        let salt: [UInt8]
        do { salt = try RandomBytes.generate(count: 32) } catch { throw .backend("could not generate a salt: \(error.message)") }
        let cipher = try PostgresRowCipher(key: key, previous: [], salt: salt, cost: cost, table: table)
        let row = PostgresSchema.KeyRow(salt: salt, cost: cost, parametersCheck: cipher.current.parametersCheck.bytes)
        try await session.run("creating \(table)_keys") { (connection) async throws(PGError) in
            try await PostgresSchema.insertKeyRow(connection, table: table, row)
        }
    }
}
#endif
