#if Hummingbird && Postgres
import Foundation
import TokenKitStore

/// The real in-memory store (`TokenKitStore.MemoryTokenStore`) behind a wrapper that counts
/// reads, so tests can check that concurrent callers share one store read.
actor CountingTokenStore: TokenStore {
    nonisolated let backendName = "counting-memory"
    private let base = MemoryTokenStore()
    private(set) var loads = 0

    func save(_ credential: Credential, for key: CredentialKey) async throws(TokenStoreError) {
        try await base.save(credential, for: key)
    }

    func load(_ key: CredentialKey) async throws(TokenStoreError) -> Credential? {
        loads += 1
        return try await base.load(key)
    }

    @discardableResult
    func delete(_ key: CredentialKey) async throws(TokenStoreError) -> Bool {
        try await base.delete(key)
    }

    func accounts(service: String) async throws(TokenStoreError) -> [CredentialInfo] {
        try await base.accounts(service: service)
    }

    func replace(_ key: CredentialKey, expected: Credential?, with new: Credential?) async throws(TokenStoreError) -> Bool {
        try await base.replace(key, expected: expected, with: new)
    }

    /// The token set stored under `key`, if any.
    func tokenSet(_ key: CredentialKey) async -> TokenSet? {
        try? await base.load(key)?.tokenSet()
    }
}
#endif
