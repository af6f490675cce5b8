import Dispatch

/// Runs blocking work (file locks, fsync, D-Bus round trips) on a caller-chosen dispatch
/// queue instead of Swift's cooperative thread pool, and resumes the awaiting task with the
/// result.
///
/// Guarantees: `body` runs exactly once, on `queue`; the cooperative pool is never blocked by
/// it. Does not: cancel `body` when the task is cancelled — bound the work itself (deadlines).
package enum BlockingCall {
    /// Runs `body` on `queue` and returns its result or rethrows its error.
    package static func run<T: Sendable>(
        on queue: DispatchQueue, _ body: @escaping @Sendable () throws(TokenStoreError) -> T
    ) async throws(TokenStoreError) -> T {
        let result: Result<T, TokenStoreError> = await withCheckedContinuation { continuation in
            queue.async {
                continuation.resume(returning: Result { () throws(TokenStoreError) -> T in try body() })
            }
        }
        return try result.get()
    }
}
