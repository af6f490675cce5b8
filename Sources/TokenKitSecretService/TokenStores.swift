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

    /// The Secret Service when it has a usable default collection, otherwise the store that
    /// `fallback` makes (typically an ``EncryptedFileStore``; it is called only then, so a
    /// passphrase is asked for only when needed).
    ///
    /// "Usable" is decided the same way every time: a Secret Service answers on the session
    /// bus (``SecretServiceProbe``, about `probeTimeout`), its default collection exists — or
    /// was created through a prompt — and is unlocked — or was unlocked through a prompt —
    /// and the write lock can be taken (``SecretServiceStore/checkWritable()``, under the
    /// store's own deadline; prompts only where ``UnlockPromptPolicy`` allows them).
    ///
    /// Guarantees: decides without libsecret's long D-Bus timeouts and says why (the reason
    /// names what made the Secret Service unusable). Does not: remember the decision (record
    /// it with the login, as `tokenkit login` does, so that later calls look in the same
    /// place even when the keyring is away). Reads only `environment`.
    public static func makeDefault(
        environment: [String: String],
        secretServiceOptions: SecretServiceStore.Options? = nil,
        probeTimeout: Duration = .milliseconds(750),
        fallback: () throws(TokenStoreError) -> any TokenStore
    ) async throws(TokenStoreError) -> Choice {
        let status = await SecretServiceProbe.check(environment: environment, timeout: probeTimeout)
        let unusable: String
        if status.isAvailable {
            let store = SecretServiceStore(
                options: secretServiceOptions ?? .standard(environment: environment), environment: environment)
            do throws(TokenStoreError) {
                try await store.checkWritable()
                return Choice(store: store, reason: "secret-service: \(status.reason), with a usable default collection")
            } catch {
                unusable = "the Secret Service is not usable (\(error.message))"
            }
        } else {
            unusable = status.reason
        }
        let store: any TokenStore
        do throws(TokenStoreError) { store = try fallback() } catch {
            throw TokenStoreError(code: error.code, message: "no usable Secret Service (\(unusable)), and \(error.message)")
        }
        return Choice(store: store, reason: "\(store.backendName): \(unusable)")
    }
}
