/// Factories for the failures the built-in backends report. Each message names the cause and,
/// where one exists, the fix; none ever includes secret bytes.
extension TokenStoreError {
    /// The passphrase or raw key does not open the file at `path`.
    public static func wrongPassphrase(_ why: String) -> Self { .init(code: .wrongPassphrase, message: why) }
    /// The file is damaged, truncated, modified or not a TokenKit store.
    public static func corrupted(_ why: String) -> Self { .init(code: .corrupted, message: why) }
    /// A file or directory is readable or writable by others, or owned by someone else.
    public static func insecurePermissions(_ why: String) -> Self { .init(code: .insecurePermissions, message: why) }
    /// No passphrase or key was supplied.
    public static func missingPassphrase(_ why: String) -> Self { .init(code: .missingPassphrase, message: why) }
    /// Reading or writing storage failed.
    public static func io(_ why: String) -> Self { .init(code: .io, message: why) }
    /// Any other backend failure.
    public static func backend(_ why: String) -> Self { .init(code: .backend, message: why) }
    /// A ``RefreshLock`` could not be taken (the message starts with "refresh lock: ").
    public static func lock(_ why: String) -> Self { .init(code: .lock, message: "refresh lock: \(why)") }
    /// The waiting task was cancelled.
    public static func cancelled(_ why: String) -> Self { .init(code: .cancelled, message: why) }
}
