#if Postgres
import Testing
import TokenKitStore
@testable import TokenKitPostgres

/// Advisory-lock ids are shared by every replica, whatever TokenKit version it runs: they must
/// never change. The expected values were computed independently (Python's hashlib:
/// the first 8 bytes of SHA-256 of the NUL-joined parts, big-endian, signed).
@Suite("Advisory-lock ids are stable")
struct AdvisoryLockIDTests {
    @Test("the refresh lock and the schema lock keep their ids")
    func pinned() throws {
        let key = try CredentialKey(service: "svc", account: "a")
        #expect(try PostgresRefreshLock.lockID(namespace: "ns", key: key) == 2_858_229_975_584_889_548)
        #expect(try PostgresSchema.schemaLockID(PostgresTableName("tokenkit_credentials")) == -123_775_251_712_876_995)
    }

    @Test("parts are separated, so moving a byte between them changes the id")
    func separated() throws {
        #expect(try AdvisoryLockID.of(["a", "bc"]) != AdvisoryLockID.of(["ab", "c"]))
        #expect(try AdvisoryLockID.of(["tokenkit schema", "t"]) != AdvisoryLockID.of(["tokenkit refresh lock", "t"]))
    }
}
#endif
