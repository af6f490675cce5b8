import AppClientKit
import ArgumentParser
import Foundation

/// `--server URL` plus the store options, accepted by every `cleveroo` command.
struct CleverooOptions: ParsableArguments {
    @Option(help: "The Cleveroo server.")
    var server: String = "http://localhost:3000"

    @OptionGroup var store: StoreOptions

    /// The stored session for this server.
    func session() async throws -> ClientSession {
        try await ClientSession(app: "cleveroo", server: try APIClient.serverURL(server), options: store)
    }
}

/// Runs a command body with the Cleveroo client's error contract.
func cleverooCommand(_ body: () async throws -> Void) async {
    await ClientMain.run(signIn: "cleveroo login parent --email EMAIL", body)
}

