import ArgumentParser
import TokenKitStore

extension StoreCommand {
    /// `tokenkit store list`: one account a line with its metadata; never a secret.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List the accounts stored for a service, one a line with tab-separated metadata (never secrets).")

        @Option(help: "The service whose accounts to list.")
        var service: String
        @OptionGroup var backend: BackendOptions

        func run() async throws {
            try await reportingAllFailures {
                guard !service.isEmpty else { throw CLIFailure.usage("--service must not be empty") }
                let opened = try await backend.openStore(services: [service])
                for info in try await opened.store.accounts(service: service) {
                    // Names and kinds come from the store, which other programs may write:
                    // each field is cleaned, so none can carry a tab, a line break or an
                    // escape sequence into the listing.
                    var fields = [StoreFormat.shown(info.account), "kind=\(StoreFormat.shown(info.kind.rawValue))", "size=\(info.size)"]
                    if let updated = info.updatedAt { fields.append("updated=\(StoreFormat.timestamp(updated))") }
                    if let expires = info.expiresAt { fields.append("expires=\(StoreFormat.timestamp(expires))") }
                    StandardStreams.printOutput(fields.joined(separator: "\t"))
                }
            }
        }
    }
}
