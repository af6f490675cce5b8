import ArgumentParser

/// `tokenkit store`: put, get, list and delete stored credentials. Secrets travel only
/// through stdin (put) and stdout (`get --reveal`), never through arguments or messages.
struct StoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store",
        abstract: "Manage stored credentials (Secret Service keyring, encrypted file or PostgreSQL).",
        discussion: """
            Exit status: 0 success, 1 no such entry, 64 usage error, 2 storage or key error \
            (wrong passphrase, damaged file, no Secret Service, locked keyring...).
            """,
        subcommands: [Put.self, Get.self, List.self, Delete.self, Restore.self]
    )
}
