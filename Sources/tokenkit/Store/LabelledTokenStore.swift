import TokenKitStore

/// The store every command uses: forwards to the opened backend and makes each storage error
/// name that backend and how to choose another, e.g. `secret-service backend: the default
/// keyring collection is locked…; to use another backend, pass --backend file (or set
/// TOKENKIT_BACKEND)`. Errors about the arguments (an unusable key or token set, an entry of
/// another kind) pass unchanged.
///
/// Guarantees: the wrapped store's results and error codes are kept; messages only gain the
/// backend and the hint, never secret bytes. Does not: retry or change what is stored.
struct LabelledTokenStore: TokenStorePreflight {
    let inner: any TokenStore

    init(_ inner: any TokenStore) { self.inner = inner }

    var backendName: String { inner.backendName }

    func save(_ credential: Credential, for key: CredentialKey) async throws(TokenStoreError) {
        try await labelled { () throws(TokenStoreError) in try await inner.save(credential, for: key) }
    }

    func load(_ key: CredentialKey) async throws(TokenStoreError) -> Credential? {
        try await labelled { () throws(TokenStoreError) in try await inner.load(key) }
    }

    @discardableResult
    func delete(_ key: CredentialKey) async throws(TokenStoreError) -> Bool {
        try await labelled { () throws(TokenStoreError) in try await inner.delete(key) }
    }

    func accounts(service: String) async throws(TokenStoreError) -> [CredentialInfo] {
        try await labelled { () throws(TokenStoreError) in try await inner.accounts(service: service) }
    }

    func replace(_ key: CredentialKey, expected: Credential?, with new: Credential?) async throws(TokenStoreError) -> Bool {
        try await labelled { () throws(TokenStoreError) in try await inner.replace(key, expected: expected, with: new) }
    }

    /// The backend's own check when it has one (the file, the keyring); otherwise a listing,
    /// which reaches the backend (PostgreSQL) without writing.
    func checkWritable() async throws(TokenStoreError) {
        try await labelled { () throws(TokenStoreError) in
            if let checkable = inner as? any TokenStorePreflight {
                try await checkable.checkWritable()
            } else {
                _ = try await inner.accounts(service: "dev.tokenkit.preflight")
            }
        }
    }

    private func labelled<T>(_ body: () async throws(TokenStoreError) -> T) async throws(TokenStoreError) -> T {
        do throws(TokenStoreError) {
            return try await body()
        } catch {
            throw Self.label(error, backend: inner.backendName)
        }
    }

    /// `error` naming `backend` and the way to choose another (argument errors unchanged).
    static func label(_ error: TokenStoreError, backend: String) -> TokenStoreError {
        guard ![.invalidKey, .invalidTokenSet, .wrongKind].contains(error.code) else { return error }
        let others = ["secret-service", "file", "postgres"].filter { $0 != backend }.joined(separator: " or ")
        return TokenStoreError(
            code: error.code,
            message: "\(backend) backend: \(error.message); to use another backend, pass --backend \(others) (or set \(BackendChoice.environmentVariable))")
    }
}
