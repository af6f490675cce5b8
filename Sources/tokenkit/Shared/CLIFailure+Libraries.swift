import TokenKitAuth
import TokenKitStore

/// How the libraries' errors become CLI failures: the one mapping, used by every command.
/// Messages are the libraries' own (never tokens or secrets).
extension CLIFailure {
    /// The failure to report for `error`.
    ///
    /// - A ``CLIFailure`` is kept as it is.
    /// - A `TokenStoreError`: an unusable key or token set is a usage error (64), an entry of
    ///   another kind is not found (1), anything else is storage (2).
    /// - An `AuthError`: refused or mismatched answers are rejections (1), unusable options
    ///   usage (64), network, server and store failures I/O (2). With `signIn` (`tokenkit
    ///   login`/`logout`) the sign-in outcomes — access denied, expired, failed authorization,
    ///   a bad ID token, a start URL opened twice — are rejections too.
    /// - Cancellation is I/O ("cancelled"); any other error is I/O naming only its type (its
    ///   description is not vetted for secrets).
    init(_ error: any Error, signIn: Bool = false) {
        switch error {
        case let failure as CLIFailure:
            self = failure
        case let failure as TokenStoreError:
            self.init(failure)
        case let failure as AuthError:
            self.init(Self.code(for: failure.code, signIn: signIn), failure.message)
        case is CancellationError:
            self = .io("cancelled")
        default:
            self = .io("unexpected failure (\(type(of: error)))")
        }
    }

    /// A store error: its message, and usage (64) for an unusable key or token set, not found
    /// (1) for an entry of another kind, storage (2) otherwise.
    init(_ error: TokenStoreError) {
        switch error.code {
        case .invalidKey, .invalidTokenSet: self.init(.usage, error.message)
        case .wrongKind: self.init(.notFound, error.message)
        default: self.init(.io, error.message)
        }
    }

    /// The code for an `AuthError` code (see ``init(_:signIn:)``).
    static func code(for code: AuthError.Code, signIn: Bool) -> Code {
        switch code {
        case .signInRequired, .refreshRejected, .responseMismatch: .rejected
        case .accessDenied, .signInExpired, .invalidIDToken, .authorizationFailed, .startURLReused: signIn ? .rejected : .io
        case .invalidConfiguration: .usage
        default: .io
        }
    }
}
