import Foundation

/// Runs blocking work on a thread of its own, outside Swift concurrency's and Dispatch's
/// shared pools.
///
/// `tokenkit audit` blocks while its workers run; done on a pool thread, that blocked thread
/// counts against the pool's width (the number of cores), so one core's worth of workers
/// would wait until Dispatch noticed and added a thread.
enum DedicatedThread {
    /// The result of `body`, run on a new thread named `name`.
    static func run<T: Sendable>(named name: String, _ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(with: Result { try body() })
            }
            thread.name = name
            thread.start()
        }
    }
}
