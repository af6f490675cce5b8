#if Postgres
import Foundation
import PostgresTestSupport
import Testing
import TokenKitPostgres
import TokenKitStore

/// What the PostgreSQL store adds to the shared contract (which TokenKitStoreTests runs
/// against it too): encryption at rest, key ids and rotation, schema creation, errors.
@Suite("PostgreSQL token store")
struct PostgresTokenStoreTests {
    let key = try! CredentialKey(service: "com.example.api", account: "alice")

    @Test("stored rows hold no plaintext token: the table read directly shows only ciphertext")
    func noPlaintextAtRest() async throws {
        let endpoint = try PostgresTestServer.main()
        let table = uniqueTable("plain")
        let store = PostgresTokenStore(endpoint: endpoint, key: try testKey(), options: try testOptions(table: table))
        let tokens = TokenSet(
            accessToken: "ACCESS-eyJhbGciOiJIUzI1NiJ9-plaintext", refreshToken: "REFRESH-rotating-plaintext",
            idToken: "IDTOKEN-plaintext", expiresAt: Date(timeIntervalSince1970: 1_900_000_000))
        try await store.save(Credential(tokenSet: tokens), for: key)
        try await store.save(Credential(secret: Array("API-KEY-plaintext".utf8)), for: CredentialKey(service: "com.example.api", account: "bob"))
        let dump = try await PostgresTestServer.psql("SELECT t::text FROM \(table) t")
        let hexDump = try await PostgresTestServer.psql("SELECT encode(nonce, 'hex') || encode(ciphertext, 'hex') FROM \(table)")
        #expect(dump.contains("com.example.api"), "the dump should show the rows: \(dump)")
        for secret in ["ACCESS-", "REFRESH-", "IDTOKEN-", "API-KEY-", "plaintext", "eyJhbGci"] {
            #expect(!dump.contains(secret))
            let hex = Array(secret.utf8).map { String(format: "%02x", $0) }.joined()
            #expect(!hexDump.contains(hex))
            #expect(!dump.contains(hex))
        }
        // What the database may see: names, kind, size, expiry, key id, version.
        let metadata = try await PostgresTestServer.psql("SELECT kind, secret_size, expires_at, version FROM \(table) WHERE account = 'alice'")
        #expect(metadata == "token-set|\(Credential(tokenSet: tokens).secret.count)|1900000000|1")
        #expect(try await store.load(key)?.tokenSet() == tokens)
        await store.close()
    }

    @Test("another replica with the same passphrase reads the rows; a wrong passphrase is told apart, naming the key ids")
    func sharedAndWrongPassphrase() async throws {
        let endpoint = try PostgresTestServer.main()
        let table = uniqueTable("keys")
        let first = PostgresTokenStore(endpoint: endpoint, key: try testKey(), options: try testOptions(table: table))
        try await first.save(Credential(secret: [1, 2, 3]), for: key)
        let replica = PostgresTokenStore(endpoint: endpoint, key: try testKey(), options: try testOptions(table: table))
        #expect(try await replica.load(key)?.secret == [1, 2, 3])
        let wrong = PostgresTokenStore(endpoint: endpoint, key: try testKey("battery staple"), options: try testOptions(table: table))
        let error = await #expect(throws: TokenStoreError.self) { try await wrong.load(key) }
        #expect(error?.code == .wrongPassphrase)
        #expect(error?.message.contains("wrong passphrase") == true)
        // A wrong passphrase never overwrites the row.
        let saveError = await #expect(throws: TokenStoreError.self) { try await wrong.save(Credential(secret: [9]), for: key) }
        #expect(saveError?.code == .wrongPassphrase)
        #expect(try await replica.load(key)?.secret == [1, 2, 3])
        // Nor deletes it (issue 24: refused like the file backend), nor lists with it.
        let deleteError = await #expect(throws: TokenStoreError.self) { try await wrong.delete(key) }
        #expect(deleteError?.code == .wrongPassphrase)
        #expect(try await replica.load(key)?.secret == [1, 2, 3])
        await #expect(throws: TokenStoreError.self) { try await wrong.accounts(service: key.service) }
        for store in [first, replica, wrong] { await store.close() }
    }

    @Test("key rotation: previous keys open old rows, every write re-encrypts under the current key id")
    func rotation() async throws {
        let endpoint = try PostgresTestServer.main()
        let table = uniqueTable("rotate")
        let old = try testKey("old passphrase"), new = try testKey("new passphrase")
        let before = PostgresTokenStore(endpoint: endpoint, key: old, options: try testOptions(table: table))
        try await before.save(Credential(secret: Array("v1".utf8)), for: key)
        let oldID = try await PostgresTestServer.psql("SELECT key_id FROM \(table)")
        let rotated = PostgresTokenStore(endpoint: endpoint, key: new, options: try testOptions(table: table, previousKeys: [old]))
        let loaded = try #require(try await rotated.load(key))
        #expect(loaded.secret == Array("v1".utf8))
        #expect(try await rotated.replace(key, expected: loaded, with: Credential(secret: Array("v2".utf8))))
        let newID = try await PostgresTestServer.psql("SELECT key_id FROM \(table)")
        #expect(oldID.count == 16 && newID.count == 16 && oldID != newID)
        // The old key alone no longer opens the row.
        let error = await #expect(throws: TokenStoreError.self) { try await before.load(key) }
        #expect(error?.code == .wrongPassphrase)
        #expect(error?.message.contains(newID) == true)
        for store in [before, rotated] { await store.close() }
    }

    @Test("a ciphertext copied to another account or altered in the database fails authentication")
    func tampering() async throws {
        let endpoint = try PostgresTestServer.main()
        let table = uniqueTable("tamper")
        let store = PostgresTokenStore(endpoint: endpoint, key: try testKey(), options: try testOptions(table: table))
        try await store.save(Credential(secret: Array("alice-secret".utf8)), for: key)
        let mallory = try CredentialKey(service: key.service, account: "mallory")
        try await store.save(Credential(secret: Array("mallory-secret".utf8)), for: mallory)
        _ = try await PostgresTestServer.psql("""
            UPDATE \(table) SET nonce = a.nonce, ciphertext = a.ciphertext, key_id = a.key_id
            FROM \(table) a WHERE \(table).account = 'mallory' AND a.account = 'alice'
            """)
        let swapped = await #expect(throws: TokenStoreError.self) { try await store.load(mallory) }
        #expect(swapped?.code == .corrupted)
        _ = try await PostgresTestServer.psql("UPDATE \(table) SET ciphertext = set_byte(ciphertext, 0, get_byte(ciphertext, 0) # 1) WHERE account = 'alice'")
        let flipped = await #expect(throws: TokenStoreError.self) { try await store.load(key) }
        #expect(flipped?.code == .corrupted)
        await store.close()
    }

    @Test("the schema is created once when many replicas start at the same moment (CREATE TABLE IF NOT EXISTS races on the catalog)")
    func concurrentSchemaCreation() async throws {
        let endpoint = try PostgresTestServer.main()
        // Several rounds, each on a fresh table: without the schema lock, concurrent creation
        // failed now and then with 42710 ("type ... already exists").
        for round in 0..<5 {
            let table = uniqueTable("race\(round)")
            let options = try testOptions(table: table)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for i in 0..<8 {
                    group.addTask {
                        let store = PostgresTokenStore(endpoint: endpoint, key: try testKey(), options: options)
                        try await store.save(Credential(secret: [UInt8(i)]), for: CredentialKey(service: "race", account: "a\(i)"))
                        await store.close()
                    }
                }
                try await group.waitForAll()
            }
            let count = try await PostgresTestServer.psql("SELECT count(*) FROM \(table)")
            #expect(count == "8")
            let salts = try await PostgresTestServer.psql("SELECT count(*) FROM \(table)_keys")
            #expect(salts == "1")
        }
    }

    @Test("an IPv6 literal host (postgres://u@[::1]:PORT/db) reaches the server",
          .enabled(if: PostgresTestServer.environment["WITH_POSTGRES_IPV6_URL"] != nil, "no IPv6 loopback on this machine"))
    func ipv6Host() async throws {
        let endpoint = try PostgresTestServer.endpoint(from: "WITH_POSTGRES_IPV6_URL")
        #expect(endpoint.host == "::1")
        let store = PostgresTokenStore(endpoint: endpoint, key: try testKey(), options: try testOptions(table: uniqueTable("ipv6")))
        try await store.save(Credential(secret: [6]), for: key)
        #expect(try await store.load(key)?.secret == [6])
        await store.close()
    }

    @Test("table names are validated as plain identifiers", arguments: [
        "", "Credentials", "1table", "a;drop table x", "t\"x", "tokens.credentials", String(repeating: "a", count: 51), "ünïcode",
    ])
    func tableNames(_ name: String) {
        #expect(throws: TokenStoreError.self) { try PostgresTableName(name) }
    }

    @Test("good table names are accepted")
    func goodTableNames() throws {
        #expect(try PostgresTableName("tokenkit_credentials").rawValue == "tokenkit_credentials")
        #expect(try PostgresTableName("_t9").description == "_t9")
    }
}
#endif
