import ArgumentParser
import Foundation

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
        version: BuildVersion.line,
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
        StandardStreams.writeErrorLines(Self.helpMessage())
        throw ExitCode(ExitStatus.usage)
    }

    /// argument-parser's entry point, with its messages routed through ``StandardStreams``:
    /// help and version (exit 0) go to stdout as they are; every error message (they can echo
    /// an argument) goes to stderr cleaned, line by line. Exit statuses are argument-parser's
    /// own (64 for usage errors) or the ``ExitCode`` a command threw.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let message = fullMessage(for: error)
            let status = exitCode(for: error)
            if !message.isEmpty {
                if status == .success { StandardStreams.printOutput(message) } else { StandardStreams.writeErrorLines(message) }
            }
            Foundation.exit(status.rawValue)
        }
    }
}
