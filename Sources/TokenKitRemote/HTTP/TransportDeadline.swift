/// Runs one HTTP exchange under a total deadline: the operation and a timer race, the loser is
/// cancelled. Shared by the shipped transports so that every request has the same bound.
///
/// Guarantees: returns or throws within `timeout` (plus the time the operation takes to
/// notice cancellation); on expiry throws ``AuthError/Code/network`` naming the host and the
/// limit. A caller's own cancellation surfaces as ``AuthError/Code/cancelled``.
/// Does not: stop an operation that ignores cancellation (it then keeps running detached from
/// the result; the shipped transports cancel their I/O).
package enum TransportDeadline {
    /// `operation`'s result, unless `timeout` passes first.
    package static func run<T: Sendable>(
        timeout: Duration, host: String, _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await operation() }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            do {
                guard let first = try await group.next(), let value = first else {
                    if Task.isCancelled { throw AuthError.cancelled }
                    throw exceeded(host: host, timeout: timeout)
                }
                return value
            } catch is CancellationError {
                throw AuthError.cancelled
            }
        }
    }

    /// The one error for a request that outlived its total deadline, whichever timer saw it
    /// first (this race, or an HTTP client's own deadline).
    package static func exceeded(host: String, timeout: Duration) -> AuthError {
        AuthError.network("request to \(host) did not complete within \(describe(timeout)) (total deadline)")
    }

    /// E.g. `30 s` or `0.5 s`.
    static func describe(_ duration: Duration) -> String {
        let seconds = duration.seconds
        return seconds == seconds.rounded() ? "\(Int64(seconds)) s" : "\(seconds) s"
    }
}
