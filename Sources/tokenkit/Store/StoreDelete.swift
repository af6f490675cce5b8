import ArgumentParser
import Foundation
import TokenKitStore

extension StoreCommand {
    /// `tokenkit store delete`: removes one credential; exit 1 when there was none.
    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete",
            abstract: "Delete a stored credential (exit status 1 when there is none).")

        @OptionGroup var key: CredentialKeyOptions
        @OptionGroup var backend: BackendOptions

        func run() async throws {
            try await reportingAllFailures {
                let key = try key.key()
                let opened = try await backend.openStore(key: key)
                guard try await opened.store.delete(key) else {
                    throw CLIFailure.notFound("no credential stored for service \"\(key.service)\" account \"\(key.account)\" (\(opened.store.backendName) backend)")
                }
                // Whatever was deleted, a login record for this key now points at nothing.
                LoginRecording.forget(key, deletedFrom: opened.record, environment: ProcessInfo.processInfo.environment)
                StandardStreams.printOutput("deleted \(StoreFormat.shown(key.service)) / \(StoreFormat.shown(key.account)) from \(opened.store.backendName)")
            }
        }
    }
}
