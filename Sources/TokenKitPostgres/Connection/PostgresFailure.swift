import TokenKitStore

/// Turns libpq failures into one-line ``TokenStoreError``s that name the cause and the
/// server, and never include bound values (secrets travel only as bind parameters).
enum PostgresFailure {
    /// A store error for `error`, raised while doing `what` against `endpoint`.
    static func storeError(_ error: PGError, doing what: String, endpoint: PostgresEndpoint) -> TokenStoreError {
        switch error.sqlState {
        case nil where error.message.contains("password authentication failed") || error.message.contains("no password supplied"):
            return .io("PostgreSQL at \(endpoint) refused the login: \(error.message)")
        case nil:
            return error.whileConnecting
                ? .io("cannot connect to PostgreSQL at \(endpoint): \(error.message)")
                : .io("lost the connection to PostgreSQL at \(endpoint) while \(what) (\(error.message)); the next call reconnects")
        case let state? where state == "28P01" || state == "28000":
            return .io("PostgreSQL at \(endpoint) refused the login: \(error.message)")
        case let state? where state.hasPrefix("57P") || state.hasPrefix("08"):
            return .io("PostgreSQL at \(endpoint) is shutting down or unavailable while \(what) (\(error.message), SQLSTATE \(state)); the next call reconnects")
        case "57014"?:
            return .init(code: .timeout, message: "PostgreSQL at \(endpoint) did not finish \(what) in time (\(error.message))")
        case let state?:
            return .backend("PostgreSQL at \(endpoint): \(what) failed: \(error.message) (SQLSTATE \(state))")
        }
    }
}
