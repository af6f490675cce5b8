import ArgumentParser

/// The `tokenkit` command: JWTs and stored credentials from the shell.
@main
struct TokenKitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tokenkit",
        abstract: "Sign, verify, decode and audit JWTs; manage stored credentials.",
        subcommands: [StoreCommand.self]
    )
}
