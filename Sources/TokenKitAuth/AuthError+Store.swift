import TokenKitStore

extension AuthError {
    /// A ``Code/store`` error carrying the store's own (secret-free) reason.
    public static func store(_ error: TokenStoreError) -> Self {
        .init(code: .store, message: "credential store: \(error.message)")
    }
}
