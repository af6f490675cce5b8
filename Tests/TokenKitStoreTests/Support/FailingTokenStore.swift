import Foundation
import TokenKitStore

/// The real in-memory store behind a switch: while `failure` is set, every call (or, with
/// `writesOnly`, every write) throws it, and the attempts are counted — a keyring that went
/// away, locked or hung, without a keyring.
actor FailingTokenStore: TokenStore {
    nonisolated let backendName = "failing-memory"
    let base = MemoryTokenStore()
    private(set) var failure: TokenStoreError?
    private(set) var writesOnly = false
    /// How many more failing calls before the store works again (`nil`: until cleared).
    private var remaining: Int?
    private(set) var failedWrites = 0

    func fail(with error: TokenStoreError?, writesOnly: Bool = false, times: Int? = nil) {
        failure = error
        self.writesOnly = writesOnly
        remaining = times
    }

    private func check(write: Bool) throws(TokenStoreError) {
        guard let failure, write || !writesOnly else { return }
        if write { failedWrites += 1 }
        if let left = remaining {
            if left <= 1 { self.failure = nil }
            remaining = left - 1
        }
        throw failure
    }

    func save(_ credential: Credential, for key: CredentialKey) async throws(TokenStoreError) {
        try check(write: true)
        try await base.save(credential, for: key)
    }

    func load(_ key: CredentialKey) async throws(TokenStoreError) -> Credential? {
        try check(write: false)
        return try await base.load(key)
    }

    func delete(_ key: CredentialKey) async throws(TokenStoreError) -> Bool {
        try check(write: true)
        return try await base.delete(key)
    }

    func accounts(service: String) async throws(TokenStoreError) -> [CredentialInfo] {
        try check(write: false)
        return try await base.accounts(service: service)
    }

    func replace(_ key: CredentialKey, expected: Credential?, with new: Credential?) async throws(TokenStoreError) -> Bool {
        try check(write: true)
        return try await base.replace(key, expected: expected, with: new)
    }
}
