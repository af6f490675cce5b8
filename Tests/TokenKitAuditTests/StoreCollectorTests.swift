import Foundation
import Testing
import TokenKit
import TokenKitStore
@testable import TokenKitAudit

/// A read-only store over a fixed dictionary, for collecting tokens.
struct FixedStore: TokenStore {
    let credentials: [CredentialKey: Credential]
    var backendName: String { "fixed" }

    func save(_ credential: Credential, for key: CredentialKey) async throws(TokenStoreError) {
        throw TokenStoreError(code: .backend, message: "read-only")
    }
    func load(_ key: CredentialKey) async throws(TokenStoreError) -> Credential? { credentials[key] }
    func delete(_ key: CredentialKey) async throws(TokenStoreError) -> Bool { false }
    func accounts(service: String) async throws(TokenStoreError) -> [CredentialInfo] {
        credentials.filter { $0.key.service == service }
            .map { CredentialInfo(account: $0.key.account, credential: $0.value) }
            .sorted { $0.account < $1.account }
    }
    func replace(_ key: CredentialKey, expected: Credential?, with new: Credential?) async throws(TokenStoreError) -> Bool { false }
}

@Suite("Auditing a credential store")
struct StoreCollectorTests {
    @Test func collectsAccessAndIDTokensAndJWTSecretsOnly() async throws {
        let access = TestTokens.typical(index: 1)
        let id = TestTokens.claims(#""sub":"id","iat":1699990000,"exp":1699999000"#)
        let store = FixedStore(credentials: [
            try CredentialKey(service: "mail", account: "alice"): Credential(tokenSet: TokenSet(accessToken: access, refreshToken: "opaque", idToken: id)),
            try CredentialKey(service: "mail", account: "bob"): Credential(secret: Array("hunter2".utf8)),
            try CredentialKey(service: "mail", account: "carol"): Credential(secret: Array(TestTokens.typical(index: 3).utf8)),
            try CredentialKey(service: "other", account: "dave"): Credential(secret: Array(access.utf8)),
        ])
        let batches = try await StoreTokenCollector.batches(store: store, services: ["mail"])
        #expect(batches.map(\.source) == ["store:mail/alice", "store:mail/carol"])
        #expect(batches.map(\.count) == [2, 1])

        let input = BatchListInput(source: "store", batches: batches)
        let policy = AuditPolicy(now: TestTokens.instant)
        var builder = AuditSummaryBuilder(failOn: policy.failOn)
        var records: [AuditRecord] = []
        try AuditRunner(engine: AuditEngine(auditor: TokenAuditor(policy: policy))).audit(input, into: &builder) { records += $0 }
        #expect(records.map(\.source) == ["store:mail/alice", "store:mail/alice", "store:mail/carol"])
        #expect(records.map(\.line) == [1, 2, 1])
        #expect(records.map(\.status) == [.ok, .expired, .ok])
        #expect(records.allSatisfy { $0.reference?.hasPrefix("sha256:") == true })
    }

    @Test func jwsShapeCheck() {
        #expect(StoreTokenCollector.looksLikeJWS(Array("a.b.c".utf8)))
        #expect(!StoreTokenCollector.looksLikeJWS(Array("a.b".utf8)))
        #expect(!StoreTokenCollector.looksLikeJWS(Array("a b.c.d".utf8)))
        #expect(!StoreTokenCollector.looksLikeJWS([0xFF, 0x2E, 0x2E]))
    }
}
