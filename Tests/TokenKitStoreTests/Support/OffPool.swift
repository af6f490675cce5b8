import Dispatch

/// Runs blocking test plumbing (waiting for a child process, reading its pipes) on a
/// dispatch thread, so it never occupies Swift's small cooperative pool — which would stall
/// other tests running in parallel and distort their timing assertions.
func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async {
            continuation.resume(with: Result { try body() })
        }
    }
}
