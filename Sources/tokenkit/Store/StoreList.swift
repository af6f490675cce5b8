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
                    var fields = [info.account, "kind=\(info.kind)", "size=\(info.size)"]
                    if let updated = info.updatedAt { fields.append("updated=\(StoreFormat.timestamp(updated))") }
                    if let expires = info.expiresAt { fields.append("expires=\(StoreFormat.timestamp(expires))") }
                    print(fields.joined(separator: "\t"))
                }
            }
        }
    }
}
