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
            EncryptCommand.self,
            DecryptCommand.self,
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

    /// `tokenkit` with no subcommand is a usage error: the usage goes to stderr, exit 64
    /// (`tokenkit --help` still prints it on stdout and exits 0).
    func run() async throws {
        StandardStreams.writeError(Self.helpMessage())
        throw ExitCode(ExitStatus.usage)
    }
}
