import TokenKitAuth
import TokenKitStore

/// Maps what `tokenkit token` can throw onto the CLI contract (one `error:` line, exit code).
enum TokenCommandFailure {
    /// The failure to report for `error`. Messages come from the libraries, which never put
    /// tokens or secrets in them.
    static func from(_ error: any Error) -> CLIFailure {
        switch error {
        case let failure as CLIFailure:
            return failure
        case let failure as StoreCLIError:
            return CLIFailure(exitCode: failure.exitCode, message: failure.message)
        case let failure as TokenStoreError:
            let mapped = StoreCLIError(failure)
            return CLIFailure(exitCode: mapped.exitCode, message: mapped.message)
        case let failure as AuthError:
            return CLIFailure(exitCode: exitCode(for: failure.code), message: failure.message)
        default:
            return CLIFailure.io("unexpected failure (\(type(of: error)))")
        }
    }

    /// 1 for sign-in required, refused refreshes and a discovery document of another issuer
    /// (as `tokenkit login` reports a bad `iss`), 64 for unusable options, else 2.
    static func exitCode(for code: AuthError.Code) -> Int32 {
        switch code {
        case .signInRequired, .refreshRejected, .responseMismatch: ExitStatus.rejected
        case .invalidConfiguration: ExitStatus.usage
        default: ExitStatus.ioOrKey
        }
    }
}
