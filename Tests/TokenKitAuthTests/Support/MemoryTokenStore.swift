import Foundation
import TokenKitStore

/// A minimal in-memory ``TokenStore`` with real compare-and-swap, counting reads and writes.
actor MemoryTokenStore: TokenStore {
    nonisolated let backendName = "test-memory"
    private var items: [CredentialKey: Credential] = [:]
    private(set) var loads = 0
    private(set) var writes = 0

    func save(_ credential: Credential, for key: CredentialKey) throws(TokenStoreError) {
        items[key] = credential
        writes += 1
    }

    func load(_ key: CredentialKey) throws(TokenStoreError) -> Credential? {
        loads += 1
        return items[key]
    }

    @discardableResult
    func delete(_ key: CredentialKey) throws(TokenStoreError) -> Bool {
        writes += 1
        return items.removeValue(forKey: key) != nil
    }

    func accounts(service: String) throws(TokenStoreError) -> [CredentialInfo] {
        items.filter { $0.key.service == service }
            .map { CredentialInfo(account: $0.key.account, credential: $0.value) }
            .sorted { $0.account < $1.account }
    }

    func replace(_ key: CredentialKey, expected: Credential?, with new: Credential?) throws(TokenStoreError) -> Bool {
        switch (items[key], expected) {
        case (nil, nil): break
        case let (stored?, expected?) where stored.hasSameSecret(as: expected): break
        default: return false
        }
        items[key] = new
        writes += 1
        return true
    }

    /// The token set stored under `key`, if any.
    func tokenSet(_ key: CredentialKey) -> TokenSet? {
        try? items[key]?.tokenSet()
    }
}
