#if Postgres
import Foundation
internal import TokenKitCrypto
import TokenKitStore

/// A ``TokenStore`` in one PostgreSQL table, shared by every replica of a service.
///
/// Guarantees:
/// - The schema (the table and its `_keys` companion) is created on first use, idempotently,
///   also when replicas start at once. The table name is configurable and validated
///   (``PostgresTableName``).
/// - Secrets are encrypted at rest with AES-256-GCM under a key derived from the application's
///   ``FileStoreKey`` (passphrase through scrypt with a per-table salt, or a raw key); each
///   row names its key id, so the key can be rotated (``Options/previousKeys`` opens old
///   rows, every write re-encrypts under the current key). A database dump holds no token.
/// - ``replace(_:expected:with:)`` is a compare-and-swap across every client: it writes only
///   over the row version it read and compared, so a refresh never overwrites a newer one.
/// - Connection failures and server restarts surface as ``TokenStoreError``s naming the
///   server and the cause (codes `io` and `timeout`); the next call reconnects by itself.
///   The connection is postgres-nio's (non-blocking, on SwiftNIO's shared event loops);
///   connecting and each statement are bounded by ``Options/timeout``.
///   A write either commits or not (one statement each); nothing is rolled back later.
///
/// Visible to the database (and its dumps): service and account names, kind, secret size,
/// token expiry, timestamps, key id and version. Not visible: the secret bytes.
/// Does not: protect against someone who holds both a dump and the application key, or hide
/// which accounts exist.
public final class PostgresTokenStore: TokenStore {
    /// How the store is set up.
    public struct Options: Sendable {
        /// The credential table (default `tokenkit_credentials`).
        public var table: PostgresTableName
        /// Keys that may still open existing rows (key rotation); writes always use the
        /// current key.
        public var previousKeys: [FileStoreKey]
        /// The scrypt cost recorded when this store creates the table (an existing table
        /// keeps its own); ignored for raw keys.
        public var scryptCost: ScryptCost
        /// The bound on connecting and on each statement (the server's `statement_timeout`; the
        /// client gives up 2 s later if the server does not answer at all). Default 15 s,
        /// at least 2 s.
        public var timeout: Duration

        /// Options with the given values.
        public init(
            table: PostgresTableName = .standard, previousKeys: [FileStoreKey] = [],
            scryptCost: ScryptCost = .interactive, timeout: Duration = .seconds(15)
        ) {
            self.table = table
            self.previousKeys = previousKeys
            self.scryptCost = scryptCost
            self.timeout = timeout
        }
    }

    /// The server this store uses (never shows the password).
    public let endpoint: PostgresEndpoint
    private let key: FileStoreKey
    private let options: Options
    private let session: PostgresSession
    private let prepared: PreparedCipher
    private let clock: any TokenClock

    /// A store on `endpoint` encrypted with `key`. Nothing connects until the first call;
    /// `clock` supplies the timestamps written on save.
    public init(
        endpoint: PostgresEndpoint, key: FileStoreKey, options: Options = Options(),
        clock: any TokenClock = SystemClock()
    ) {
        self.endpoint = endpoint
        self.key = key
        self.options = options
        self.session = PostgresSession(endpoint: endpoint, timeout: max(.seconds(2), options.timeout))
        self.prepared = PreparedCipher()
        self.clock = clock
    }

    /// Closes the connection (the next call opens a new one).
    public func close() async {
        await session.close()
    }

    /// Always `"postgres"`.
    public var backendName: String { "postgres" }

    private var table: PostgresTableName { options.table }

    /// Stores `credential` under `key` (an upsert), keeping the row's creation time.
    ///
    /// Refuses (``TokenStoreError/Code/wrongPassphrase``) to overwrite a row encrypted under a
    /// key this store cannot read: a wrong passphrase never clobbers other replicas' credential.
    public func save(_ credential: Credential, for key: CredentialKey) async throws(TokenStoreError) {
        let cipher = try await cipher()
        let row = try Row(credential, key: key, cipher: cipher, now: clock.now)
        let table = table
        let readable = cipher.readable.map(\.id).joined(separator: ",")
        let saved = try await session.run("saving \(key)") { (connection) async throws(PGError) -> Bool in
            !(try await connection.query("""
                INSERT INTO \(table.quoted)
                    (service, account, kind, key_id, nonce, ciphertext, secret_size, expires_at, created_at, updated_at, version)
                VALUES ($1, $2, $3, $4, $5, $6, $7::int8::int4, $8, COALESCE($9, $10), $10, 1)
                ON CONFLICT (service, account) DO UPDATE SET
                    kind = EXCLUDED.kind, key_id = EXCLUDED.key_id, nonce = EXCLUDED.nonce,
                    ciphertext = EXCLUDED.ciphertext, secret_size = EXCLUDED.secret_size,
                    expires_at = EXCLUDED.expires_at,
                    created_at = COALESCE($9, \(table.quoted).created_at),
                    updated_at = EXCLUDED.updated_at, version = \(table.quoted).version + 1
                WHERE \(table.quoted).key_id = ANY(string_to_array($11, ','))
                RETURNING version
                """, row.parameters(key) + [.text(readable)]).isEmpty)
        }
        guard saved else {
            throw .wrongPassphrase(
                "the credential \(key) in table \(table) is encrypted with another key than this store's (\(readable)): "
                    + "wrong passphrase? It was not overwritten")
        }
    }

    /// Returns the credential under `key`, or `nil`.
    public func load(_ key: CredentialKey) async throws(TokenStoreError) -> Credential? {
        try await read(key)?.credential
    }

    /// Deletes the credential under `key`; returns `false` when there was none.
    ///
    /// Refuses (``TokenStoreError/Code/wrongPassphrase``) like the file backend when this
    /// store's key cannot open the table (``PostgresKeyParameters``) or the row is encrypted
    /// under a key it cannot read: a wrong passphrase never deletes another replica's credential.
    @discardableResult
    public func delete(_ key: CredentialKey) async throws(TokenStoreError) -> Bool {
        let cipher = try await cipher()
        let table = table
        let readable = cipher.readable.map(\.id).joined(separator: ",")
        let outcome = try await session.run("deleting \(key)") { (connection) async throws(PGError) -> Bool? in
            let deleted = try await connection.query(
                "DELETE FROM \(table.quoted) WHERE service = $1 AND account = $2 AND key_id = ANY(string_to_array($3, ',')) RETURNING version",
                [.text(key.service), .text(key.account), .text(readable)])
            if !deleted.isEmpty { return true }
            let foreign = try await connection.query(
                "SELECT 1 FROM \(table.quoted) WHERE service = $1 AND account = $2", [.text(key.service), .text(key.account)])
            return foreign.isEmpty ? false : nil
        }
        guard let outcome else {
            throw .wrongPassphrase(
                "the credential \(key) in table \(table) is encrypted with another key than this store's (\(readable)): "
                    + "wrong passphrase? It was not deleted")
        }
        return outcome
    }

    /// The accounts of `service`, sorted by name, from the plaintext metadata columns only.
    public func accounts(service: String) async throws(TokenStoreError) -> [CredentialInfo] {
        _ = try await cipher()
        let table = table
        let infos = try await session.run("listing \(service)") { (connection) async throws(PGError) -> [CredentialInfo] in
            let rows = try await connection.query("""
                SELECT account, kind, secret_size, created_at, updated_at, expires_at
                FROM \(table.quoted) WHERE service = $1
                """, [.text(service)])
            var infos: [CredentialInfo] = []
            for row in rows {
                infos.append(CredentialInfo(
                    account: try row.text(0), kind: Credential.Kind(rawValue: try row.text(1)), size: Int(try row.int32(2)),
                    createdAt: Date(timeIntervalSince1970: try row.double(3)), updatedAt: Date(timeIntervalSince1970: try row.double(4)),
                    expiresAt: try row.optionalDouble(5).map(Date.init(timeIntervalSince1970:))))
            }
            return infos
        }
        return infos.sorted { $0.account < $1.account }
    }

    /// Compare-and-swap on the row version; see ``TokenStore/replace(_:expected:with:)``.
    ///
    /// Reads the row, compares its decrypted secret with `expected`, then writes only if the
    /// version is still the one read (otherwise reads again, a bounded number of times).
    public func replace(_ key: CredentialKey, expected: Credential?, with new: Credential?) async throws(TokenStoreError) -> Bool {
        let cipher = try await cipher()
        let table = table
        for _ in 0..<16 {
            let stored = try await read(key)
            guard Credential.matches(stored: stored?.credential, expected: expected) else { return false }
            let written: Bool
            switch (stored, new) {
            case (nil, nil):
                return true
            case (let stored?, nil):
                written = try await session.run("deleting \(key)") { (connection) async throws(PGError) -> Bool in
                    !(try await connection.query(
                        "DELETE FROM \(table.quoted) WHERE service = $1 AND account = $2 AND version = $3 RETURNING version",
                        [.text(key.service), .text(key.account), .int64(stored.version)]).isEmpty)
                }
            case (nil, let new?):
                let row = try Row(new, key: key, cipher: cipher, now: clock.now)
                written = try await session.run("creating \(key)") { (connection) async throws(PGError) -> Bool in
                    !(try await connection.query("""
                        INSERT INTO \(table.quoted)
                            (service, account, kind, key_id, nonce, ciphertext, secret_size, expires_at, created_at, updated_at, version)
                        VALUES ($1, $2, $3, $4, $5, $6, $7::int8::int4, $8, COALESCE($9, $10), $10, 1)
                        ON CONFLICT (service, account) DO NOTHING
                        RETURNING version
                        """, row.parameters(key)).isEmpty)
                }
            case (let stored?, let new?):
                let row = try Row(new, key: key, cipher: cipher, now: clock.now)
                written = try await session.run("replacing \(key)") { (connection) async throws(PGError) -> Bool in
                    !(try await connection.query("""
                        UPDATE \(table.quoted) SET
                            kind = $3, key_id = $4, nonce = $5, ciphertext = $6, secret_size = $7::int8::int4,
                            expires_at = $8, created_at = COALESCE($9, created_at), updated_at = $10, version = version + 1
                        WHERE service = $1 AND account = $2 AND version = $11
                        RETURNING version
                        """, row.parameters(key) + [.int64(stored.version)]).isEmpty)
                }
            }
            if written { return true }
            // The row changed between the read and the write: compare again with what is there now.
        }
        return false
    }

    // MARK: - Rows

    /// A stored credential with the version it was read at.
    private struct Stored: Sendable {
        let credential: Credential
        let version: Int64
    }

    private func read(_ key: CredentialKey) async throws(TokenStoreError) -> Stored? {
        let cipher = try await cipher()
        let table = table
        let found = try await session.run("loading \(key)") { (connection) async throws(PGError) -> RawRow? in
            let rows = try await connection.query("""
                SELECT kind, key_id, nonce, ciphertext, created_at, updated_at, version
                FROM \(table.quoted) WHERE service = $1 AND account = $2
                """, [.text(key.service), .text(key.account)])
            guard let row = rows.first else { return nil }
            return RawRow(
                kind: try row.text(0), keyID: try row.text(1), nonce: try row.bytes(2), ciphertext: try row.bytes(3),
                createdAt: try row.double(4), updatedAt: try row.double(5), version: try row.int64(6))
        }
        guard let found else { return nil }
        let kind = Credential.Kind(rawValue: found.kind)
        let secret = try cipher.open(
            .init(keyID: found.keyID, nonce: found.nonce, ciphertext: found.ciphertext), kind: kind, for: key)
        return Stored(
            credential: Credential(
                kind: kind, secret: secret, createdAt: Date(timeIntervalSince1970: found.createdAt),
                updatedAt: Date(timeIntervalSince1970: found.updatedAt)),
            version: found.version)
    }

    private struct RawRow: Sendable {
        let kind: String
        let keyID: String
        let nonce: [UInt8]
        let ciphertext: [UInt8]
        let createdAt: Double
        let updatedAt: Double
        let version: Int64
    }

    /// The values written for a credential: its sealed secret and plaintext metadata.
    private struct Row: Sendable {
        let kind: String
        let sealed: PostgresRowCipher.Sealed
        let size: Int32
        let expiresAt: Double?
        let createdAt: Double?
        let updatedAt: Double

        init(_ credential: Credential, key: CredentialKey, cipher: PostgresRowCipher, now: Date) throws(TokenStoreError) {
            guard credential.secret.count < Int(Int32.max) / 2 else { throw .backend("the secret is too large for the database") }
            kind = credential.kind.rawValue
            sealed = try cipher.seal(credential.secret, kind: credential.kind, for: key)
            size = Int32(credential.secret.count)
            expiresAt = CredentialInfo(account: key.account, credential: credential).expiresAt?.timeIntervalSince1970
            createdAt = credential.createdAt?.timeIntervalSince1970
            updatedAt = now.timeIntervalSince1970
        }

        /// $1 service, $2 account, $3 kind, $4 key id, $5 nonce, $6 ciphertext, $7 size,
        /// $8 expiry, $9 the caller's creation time, $10 now.
        func parameters(_ key: CredentialKey) -> [PGValue?] {
            [.text(key.service), .text(key.account), .text(kind), .text(sealed.keyID), .bytes(sealed.nonce),
             .bytes(sealed.ciphertext), .int64(Int64(size)), expiresAt.map(PGValue.double), createdAt.map(PGValue.double),
             .double(updatedAt)]
        }
    }

    // MARK: - Schema and keys

    /// Creates the schema and derives the keys on first use (once per store), through the one
    /// gate for the table's key parameters (``PostgresKeyParameters``).
    private func cipher() async throws(TokenStoreError) -> PostgresRowCipher {
        if let ready = await prepared.cipher { return ready }
        let cost = options.scryptCost
        let cipher = try await PostgresKeyParameters.cipher(
            session: session, table: table, key: key, previous: options.previousKeys,
            newCost: Scrypt.Parameters(logN: cost.logN, r: cost.r, p: cost.p))
        await prepared.set(cipher)
        return cipher
    }
}

/// The derived keys, once the schema is ready.
private actor PreparedCipher {
    private(set) var cipher: PostgresRowCipher?
    func set(_ cipher: PostgresRowCipher) { self.cipher = cipher }
}
#endif
