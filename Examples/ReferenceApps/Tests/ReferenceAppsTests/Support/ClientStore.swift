import Foundation

/// A client's private store for one test: the encrypted file, its passphrase file, and the
/// options that select them.
struct ClientStore {
    let directory: TempDirectory
    let arguments: [String]

    init() throws {
        directory = try TempDirectory()
        let passphrase = directory.file("passphrase")
        try Data("store passphrase\n".utf8).write(to: URL(fileURLWithPath: passphrase))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: passphrase)
        arguments = ["--backend", "file", "--file", directory.file("credentials.tkstore"), "--passphrase-file", passphrase]
    }

    /// Runs the client `binary ARGS --server SERVER` with this store.
    func run(_ binary: String, _ server: URL, _ arguments: [String], stdin: String = "") async throws -> RunResult {
        try await ClientProcess.run(binary, arguments + ["--server", server.absoluteString] + self.arguments, stdin: stdin)
    }
}
