#if Postgres
import TokenKitStore

/// Turns ``PGError``s into one-line ``TokenStoreError``s that name the cause and the server,
/// and never include bound values (secrets travel only as bound parameters) or the password.
enum PostgresFailure {
    /// A store error for `error`, raised while doing `what` against `endpoint`.
    static func storeError(_ error: PGError, doing what: String, endpoint: PostgresEndpoint) -> TokenStoreError {
        switch (error.kind, error.sqlState) {
        case (.loginRefused, _):
            return .io("PostgreSQL at \(endpoint) refused the login: \(error.message)")
        case (.timedOut, _):
            return error.whileConnecting
                ? .io("cannot connect to PostgreSQL at \(endpoint): \(error.message)")
                : .init(code: .timeout, message: "PostgreSQL at \(endpoint) did not finish \(what) in time (\(error.message)); the next call reconnects")
        case (.connectionLost, _) where error.whileConnecting, (.server, _) where error.whileConnecting:
            // Unknown database, too many connections, starting up: the login did not complete.
            return .io("cannot connect to PostgreSQL at \(endpoint): \(error.message)")
        case (.connectionLost, _):
            return .io("lost the connection to PostgreSQL at \(endpoint) while \(what) (\(error.message)); the next call reconnects")
        case (.server, let state?) where state.hasPrefix("57P") || state.hasPrefix("08"):
            return .io("PostgreSQL at \(endpoint) is shutting down or unavailable while \(what) (\(error.message), SQLSTATE \(state)); the next call reconnects")
        case (.server, "57014"?), (.server, "55P03"?):
            return .init(code: .timeout, message: "PostgreSQL at \(endpoint) did not finish \(what) in time (\(error.message))")
        case (.server, let state):
            return .backend("PostgreSQL at \(endpoint): \(what) failed: \(error.message)" + (state.map { " (SQLSTATE \($0))" } ?? ""))
        case (.protocolViolation, _):
            return .backend("PostgreSQL at \(endpoint): \(what) failed: \(error.message)")
        }
    }
}
#endif
