import ArgumentParser
import Foundation
import TokenKitStore

extension StoreCommand {
    /// `tokenkit store restore`: moves a login from the rescue file back into its backend.
    struct Restore: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "restore",
            abstract: "Move a login that was kept in the rescue file (because its backend failed) back into the backend.",
            discussion: """
                The backend is chosen as for every command (--backend, TOKENKIT_BACKEND, the one \
                recorded by `tokenkit login`, else auto). Exit status: 0 moved; 1 nothing rescued \
                for this login, or the backend holds a newer one (nothing changed); 2 storage error; \
                64 usage error.
                """)

        @OptionGroup var key: CredentialKeyOptions
        @OptionGroup var backend: BackendOptions

        func run() async throws {
            try await reportingAllFailures {
                let key = try key.key()
                let environment = ProcessInfo.processInfo.environment
                let rescueFile = try RescueFile.standard(environment: environment)
                guard let rescue = try rescueFile.openIfPresent(), let rescued = try await rescue.load(key) else {
                    throw CLIFailure.notFound("nothing is kept in the rescue file for \(key)")
                }
                let opened = try await backend.openStore(key: key, environment: environment)
                if let stored = try await opened.store.load(key), (stored.updatedAt ?? .distantPast) > (rescued.updatedAt ?? .distantPast) {
                    throw CLIFailure.notFound(
                        "the \(opened.store.backendName) backend holds a newer credential for \(key) than the rescue file \(rescueFile.path); nothing changed")
                }
                try await opened.store.save(rescued, for: key)
                _ = try await rescue.replace(key, expected: rescued, with: nil)
                print("restored \(key.service) / \(key.account) from the rescue file into \(opened.store.backendName)")
            }
        }
    }
}
