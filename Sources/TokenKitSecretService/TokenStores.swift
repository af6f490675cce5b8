import Foundation
import TokenKitStore

/// Chooses a credential store for the current session.
public enum TokenStores {
    /// The chosen store and, in one line, why it was chosen.
    public struct Choice: Sendable {
        /// The store to use.
        public let store: any TokenStore
        /// Why this backend, e.g. `"secret-service: a Secret Service … is running"` or
        /// `"file: no D-Bus session bus: …"`.
        public let reason: String
    }

    /// The Secret Service when one answers on the session bus, otherwise the store that
    /// `fallback` makes (typically an ``EncryptedFileStore``; it is called only then, so a
    /// passphrase is asked for only when needed).
    ///
    /// Guarantees: decides within about `probeTimeout` (default 0.75 s), without
    /// libsecret's long D-Bus timeouts, and says why. Does not: check that the keyring is
    /// unlocked (a locked collection is reported by the store's first operation, not hidden
    /// by silently switching backends). Reads only `environment`.
    public static func makeDefault(
        environment: [String: String],
        secretServiceOptions: SecretServiceStore.Options? = nil,
        probeTimeout: Duration = .milliseconds(750),
        fallback: () throws(TokenStoreError) -> any TokenStore
    ) async throws(TokenStoreError) -> Choice {
        let status = await SecretServiceProbe.check(environment: environment, timeout: probeTimeout)
        if status.isAvailable {
            let store = SecretServiceStore(
                options: secretServiceOptions ?? .standard(environment: environment), environment: environment)
            return Choice(store: store, reason: "secret-service: \(status.reason)")
        }
        let store = try fallback()
        return Choice(store: store, reason: "\(store.backendName): \(status.reason)")
    }
}
