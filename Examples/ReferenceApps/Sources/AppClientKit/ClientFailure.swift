import Foundation
import TokenKitAuth

/// What a reference client prints as its one `error:` line, and its exit status.
///
/// Guarantees: ``message`` never contains a token or password: it is fixed text, the
/// server's own `message`, or a TokenKit error's (secret-free) message.
public struct ClientFailure: Error, Sendable, CustomStringConvertible {
    /// The one-line reason.
    public let message: String
    /// The exit status (1 for failures the server or the store reported, 2 for usage).
    public let status: Int32

    /// A failure with `message` and exit status `status`.
    public init(_ message: String, status: Int32 = 1) {
        self.message = message
        self.status = status
    }

    /// The message.
    public var description: String { message }

    /// "signed out", said plainly: the session ended (refresh token rejected or nothing
    /// stored) and `signIn` is the command that starts a new one.
    public static func signedOut(_ signIn: String) -> ClientFailure {
        ClientFailure("signed out: your session has ended; sign in again with `\(signIn)`")
    }

    /// Translates what TokenKit or the transport threw; `signIn` names the sign-in command.
    public static func from(_ error: any Error, signIn: String) -> ClientFailure {
        if let failure = error as? ClientFailure { return failure }
        if let auth = error as? AuthError {
            if auth.code == .signInRequired { return signedOut(signIn) }
            return ClientFailure(auth.message)
        }
        return ClientFailure("\(error)")
    }
}

/// Runs a client command body, turning a thrown failure into `error: …` on stderr and its
/// exit status.
public enum ClientMain {
    /// Runs `body`; on failure prints one `error:` line and exits with the failure's status.
    public static func run(signIn: String, _ body: () async throws -> Void) async {
        do {
            try await body()
        } catch {
            let failure = ClientFailure.from(error, signIn: signIn)
            FileHandle.standardError.write(Data("error: \(failure.message)\n".utf8))
            exit(failure.status)
        }
    }
}
