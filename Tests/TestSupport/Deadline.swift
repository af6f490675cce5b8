import Foundation

/// Thrown when a test step did not finish within its bound.
public struct DeadlineExceeded: Error, CustomStringConvertible {
    /// The step that did not finish.
    public let what: String
    /// Makes the error for the step `what`.
    public init(what: String) { self.what = what }
    /// `timed out: ` and the step.
    public var description: String { "timed out: \(what)" }
}

/// Runs `body`, failing with ``DeadlineExceeded`` after `seconds` (a bound against hangs,
/// not a speed check). `body` must react to cancellation.
public func withDeadline<T: Sendable>(
    _ what: String, seconds: Double = 60, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else { throw DeadlineExceeded(what: what) }
        return value
    }
}

/// Polls `condition` (yielding between checks) until it holds, for at most `seconds`.
public func waitUntil(_ what: String, seconds: Double = 30, _ condition: @Sendable () async -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while !(await condition()) {
        guard ContinuousClock.now < deadline else { throw DeadlineExceeded(what: what) }
        try await Task.sleep(for: .milliseconds(1))
    }
}
