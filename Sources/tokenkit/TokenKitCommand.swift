import ArgumentParser

/// The `tokenkit` command: JWTs and stored credentials from the shell.
///
/// Exit codes (a contract): 0 success; 1 token rejected / audit found a problem / entry not
/// found; 2 I/O or key error; 64 usage error.
@main
struct TokenKitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tokenkit",
        abstract: "Sign, verify, decode and audit JWTs; manage stored credentials.",
        discussion: """
            Exit codes: 0 success; 1 token rejected, audit finding or entry not found; \
            2 I/O or key error; 64 usage error.
            """,
        version: "0.1.0",
        subcommands: [
            SignCommand.self,
            VerifyCommand.self,
            DecodeCommand.self,
            KeygenCommand.self,
            JWKCommand.self,
            AuditCommand.self,
            StoreCommand.self,
            TokenCommand.self,
            LoginCommand.self,
            LogoutCommand.self,
        ]
    )
}
