import TokenKitAuth

/// Maps what `tokenkit login` / `logout` can throw onto the CLI contract: denied, expired,
/// bad `state`/`iss`/ID token and refused codes exit 1; network, server and store failures
/// exit 2; unusable options exit 64.
enum LoginFailure {
    /// The failure to report for `error`.
    static func from(_ error: any Error) -> CLIFailure {
        guard let failure = error as? AuthError else { return TokenCommandFailure.from(error) }
        switch failure.code {
        case .accessDenied, .signInExpired, .responseMismatch, .invalidIDToken, .authorizationFailed, .signInRequired, .refreshRejected:
            return CLIFailure(exitCode: ExitStatus.rejected, message: failure.message)
        case .invalidConfiguration:
            return CLIFailure(exitCode: ExitStatus.usage, message: failure.message)
        default:
            return CLIFailure(exitCode: ExitStatus.ioOrKey, message: failure.message)
        }
    }
}
