import Foundation
internal import TokenKitPrimitives

/// A ``TokenStore`` that never drops a credential it was asked to write: a write its primary
/// store fails is retried briefly, then goes to a ``RescueFile``, and readers see the rescued
/// credential until the primary store takes it back.
///
/// Meant for what a server issued (a login, a refreshed token set), whose loss costs a new
/// sign-in — or, with single-use refresh tokens, turns the next refresh into `invalid_grant`.
///
/// Guarantees:
/// - ``save(_:for:)`` and ``replace(_:expected:with:)`` (with a new credential) try the
///   primary store, retry it after each pause of the ``RetryPolicy`` when the failure may be
///   passing (no Secret Service, I/O, other backend failures — not a timeout, which already
///   waited, nor a locked keyring or a wrong passphrase, which need a person), and then write
///   the rescue file and report a ``RescueNotice``. Before a retry it checks whether the
///   failed attempt landed after all, so a write is never applied twice.
/// - ``load(_:)`` returns the newer (by `updatedAt`) of the primary's and the rescue file's
///   credential; when the primary store fails and a rescued credential exists, the rescued
///   one. A write that the primary store takes removes the rescued copy.
/// - ``replace(_:expected:with:)`` compares `expected` with what ``load(_:)`` would return, and
///   swaps the primary store against what it holds itself (its own compare-and-swap), so a
///   refresh of a rescued credential moves the result back into the primary store.
/// - ``delete(_:)`` removes the credential from both.
/// - Only when the rescue file cannot be written either does a write fail, with an error
///   naming both failures.
///
/// Does not: serialize concurrent writers beyond what each store does (use a refresh lock, as
/// `AuthProvider` does), notice credentials rescued by another program, or move a rescued
/// credential back when only reads happen (`tokenkit store restore` does that).
public final class RescuingTokenStore: TokenStorePreflight {
    /// How often and after which pauses a failed primary write is tried again.
    public struct RetryPolicy: Sendable {
        /// One pause before each retry; empty for no retry.
        public var pauses: [Duration]

        /// Retries after the given pauses.
        public init(pauses: [Duration]) { self.pauses = pauses }

        /// Two retries, after 0.2 s and 0.6 s.
        public static let brief = RetryPolicy(pauses: [.milliseconds(200), .milliseconds(600)])
    }

    private let primary: any TokenStore
    private let rescueFile: RescueFile
    private let retry: RetryPolicy
    private let onRescue: @Sendable (RescueNotice) -> Void

    /// Writes to `primary`, falling back to `rescueFile`; `onRescue` is called (once per
    /// rescued write, on the writing task) after a credential went to the rescue file.
    public init(
        primary: any TokenStore, rescueFile: RescueFile, retry: RetryPolicy = .brief,
        onRescue: @escaping @Sendable (RescueNotice) -> Void
    ) {
        self.primary = primary
        self.rescueFile = rescueFile
        self.retry = retry
        self.onRescue = onRescue
    }

    /// The primary store's name.
    public var backendName: String { primary.backendName }

    /// The newer of the primary's and the rescued credential; the rescued one when the
    /// primary store fails.
    public func load(_ key: CredentialKey) async throws(TokenStoreError) -> Credential? {
        let rescued = try await rescueIfPresent()?.load(key)
        do throws(TokenStoreError) {
            return Self.newer(try await primary.load(key), rescued)
        } catch {
            if let rescued { return rescued }
            throw error
        }
    }

    /// Saves in the primary store (retrying briefly), else in the rescue file.
    public func save(_ credential: Credential, for key: CredentialKey) async throws(TokenStoreError) {
        let primary = primary
        do throws(TokenStoreError) {
            try await withRetries {
                () throws(TokenStoreError) in try await primary.save(credential, for: key)
            } landed: {
                await Self.holds(primary, key, credential) ? () : nil
            }
        } catch {
            let rescue = try await openRescue(failure: error)
            try await rescueWrite(failure: error, key: key) { () throws(TokenStoreError) in
                try await rescue.save(credential, for: key)
                return true
            }
            return
        }
        try? await removeRescued(key)
    }

    /// Deletes the credential from the rescue file and the primary store; `true` if either held it.
    @discardableResult
    public func delete(_ key: CredentialKey) async throws(TokenStoreError) -> Bool {
        let rescued = try await rescueIfPresent()?.delete(key) ?? false
        let stored = try await primary.delete(key)
        return rescued || stored
    }

    /// The primary store's accounts, with rescued ones merged in (the newer entry per account).
    public func accounts(service: String) async throws(TokenStoreError) -> [CredentialInfo] {
        var merged: [ExactKey: CredentialInfo] = [:]  // accounts by their exact bytes
        for info in try await primary.accounts(service: service) { merged[ExactKey(info.account)] = info }
        for info in try await rescueIfPresent()?.accounts(service: service) ?? [] {
            if let seen = merged[ExactKey(info.account)], (seen.updatedAt ?? .distantPast) >= (info.updatedAt ?? .distantPast) { continue }
            merged[ExactKey(info.account)] = info
        }
        return merged.values.sorted { $0.account < $1.account }
    }

    /// Compare-and-swap against what ``load(_:)`` returns; see the type's guarantees.
    public func replace(_ key: CredentialKey, expected: Credential?, with new: Credential?) async throws(TokenStoreError) -> Bool {
        let rescue = try rescueIfPresent()
        let rescued = try await rescue?.load(key)
        var stored: Credential? = nil
        var primaryFailure: TokenStoreError? = nil
        do throws(TokenStoreError) { stored = try await primary.load(key) } catch { primaryFailure = error }
        if let primaryFailure, rescued == nil, new == nil { throw primaryFailure }
        let current = primaryFailure == nil ? Self.newer(stored, rescued) : rescued
        // Unreadable primary and nothing rescued: what is stored cannot be compared, but the
        // caller holds what it read moments ago; keeping `new` beats losing it.
        if primaryFailure == nil || rescued != nil {
            guard Credential.matches(stored: current, expected: expected) else { return false }
        }
        guard let new else {
            if let rescued { _ = try await rescue?.replace(key, expected: rescued, with: nil) }
            if stored != nil { _ = try await primary.replace(key, expected: stored, with: nil) }
            return true
        }
        var failure = primaryFailure
        if primaryFailure == nil {
            let primary = primary
            do throws(TokenStoreError) {
                let swapped = try await withRetries {
                    () throws(TokenStoreError) -> Bool in try await primary.replace(key, expected: stored, with: new)
                } landed: {
                    await Self.holds(primary, key, new) ? true : nil
                }
                if swapped, let rescued { _ = try? await rescue?.replace(key, expected: rescued, with: nil) }
                return swapped
            } catch {
                failure = error
            }
        }
        let reason = failure ?? .backend("unknown failure")
        let target = try await openRescue(failure: reason)
        return try await rescueWrite(failure: reason, key: key) { () throws(TokenStoreError) -> Bool in
            try await target.replace(key, expected: rescued, with: new)
        }
    }

    /// The primary store's check (a sign-in should not start against a store that refuses
    /// its result, rescue file or not); nothing when the primary store has none.
    public func checkWritable() async throws(TokenStoreError) {
        try await (primary as? any TokenStorePreflight)?.checkWritable()
    }

    // MARK: - Plumbing

    /// Whether a failure may pass within a second (worth a retry).
    static func isWorthRetrying(_ error: TokenStoreError) -> Bool {
        [.noSecretService, .io, .backend].contains(error.code)
    }

    /// `a` or `b`, whichever was written later (`a` on a tie); either when the other is `nil`.
    static func newer(_ a: Credential?, _ b: Credential?) -> Credential? {
        guard let a else { return b }
        guard let b else { return a }
        return (b.updatedAt ?? .distantPast) > (a.updatedAt ?? .distantPast) ? b : a
    }

    /// Whether `store` now holds `credential` under `key` (a failed write that landed anyway).
    private static func holds(_ store: any TokenStore, _ key: CredentialKey, _ credential: Credential) async -> Bool {
        guard let now = try? await store.load(key) else { return false }
        return now.hasSameSecret(as: credential)
    }

    /// Runs `attempt`; on a failure worth retrying, pauses, returns `landed()` when the failed
    /// attempt took effect after all, else tries again.
    private func withRetries<T>(
        _ attempt: () async throws(TokenStoreError) -> T, landed: () async -> T?
    ) async throws(TokenStoreError) -> T {
        var last: TokenStoreError
        do throws(TokenStoreError) { return try await attempt() } catch { last = error }
        for pause in retry.pauses {
            guard Self.isWorthRetrying(last) else { break }
            try? await Task.sleep(for: pause)
            if let result = await landed() { return result }
            do throws(TokenStoreError) { return try await attempt() } catch { last = error }
        }
        throw last
    }

    /// The rescue store if a rescue key exists (nothing was ever rescued otherwise).
    private func rescueIfPresent() throws(TokenStoreError) -> EncryptedFileStore? {
        try rescueFile.openIfPresent()
    }

    /// The rescue store, created if needed; a failure names the primary failure too.
    private func openRescue(failure: TokenStoreError) async throws(TokenStoreError) -> EncryptedFileStore {
        do throws(TokenStoreError) { return try rescueFile.open() } catch { throw Self.bothFailed(failure, error, path: rescueFile.path) }
    }

    /// Runs a rescue write and reports it; a failure names both failures.
    @discardableResult
    private func rescueWrite(
        failure: TokenStoreError, key: CredentialKey, _ write: () async throws(TokenStoreError) -> Bool
    ) async throws(TokenStoreError) -> Bool {
        let written: Bool
        do throws(TokenStoreError) { written = try await write() } catch { throw Self.bothFailed(failure, error, path: rescueFile.path) }
        if written {
            onRescue(RescueNotice(key: key, backendName: primary.backendName, failure: failure, rescuePath: rescueFile.path))
        }
        return written
    }

    private func removeRescued(_ key: CredentialKey) async throws(TokenStoreError) {
        _ = try await rescueIfPresent()?.delete(key)
    }

    private static func bothFailed(_ primary: TokenStoreError, _ rescue: TokenStoreError, path: String) -> TokenStoreError {
        TokenStoreError(code: primary.code, message: "\(primary.message); the rescue file \(path) could not take it either: \(rescue.message)")
    }
}
