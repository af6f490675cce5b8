import Foundation
import TokenKitTestSupport

/// A client's private store for one test: the encrypted file, its passphrase file, and the
/// options that select them. The files live as long as this store (its ``directory``).
struct ClientStore {
    let directory: PrivateTemporaryDirectory
    let arguments: [String]

    init() throws {
        directory = try PrivateTemporaryDirectory(prefix: "refapps")
        let passphrase = try directory.write("passphrase", "store passphrase\n")
        arguments = ["--backend", "file", "--file", directory.file("credentials.tkstore"), "--passphrase-file", passphrase]
    }

    /// Runs the client `binary ARGS --server SERVER` with this store.
    func run(_ binary: String, _ server: URL, _ arguments: [String], stdin: String = "") async throws -> CLIResult {
        try await TokenKitCLI(binary: binary).run(arguments + ["--server", server.absoluteString] + self.arguments, stdin: stdin, environment: .client())
    }
}
