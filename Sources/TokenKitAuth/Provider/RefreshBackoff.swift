import Foundation

/// How long ``AuthProvider`` waits before trying again after refreshes fail in a row.
///
/// The first ``freeFailures`` failures are retried by the next call at once; after that,
/// calls fail fast with ``AuthError/Code/retryLater`` until `initialDelay × 2^(n−1)` (at most
/// ``maximumDelay``) has passed since the n-th backoff failure. A success, or a rejected
/// refresh token, starts over. Time comes from the provider's `TokenClock`.
public struct RefreshBackoff: Sendable, Hashable {
    /// Failures in a row that are retried immediately by the next call.
    public var freeFailures: Int
    /// The first delay.
    public var initialDelay: Duration
    /// The longest delay.
    public var maximumDelay: Duration

    /// Creates a policy; negative values are treated as zero.
    public init(freeFailures: Int = 1, initialDelay: Duration = .seconds(1), maximumDelay: Duration = .seconds(60)) {
        self.freeFailures = max(0, freeFailures)
        self.initialDelay = max(.zero, initialDelay)
        self.maximumDelay = max(.zero, maximumDelay)
    }

    /// One immediate retry, then 1 s, 2 s, 4 s ... up to 60 s.
    public static var standard: Self { .init() }

    /// The delay after `failures` failures in a row, or `nil` when the next call may retry at once.
    func delay(afterFailures failures: Int) -> Duration? {
        guard failures > freeFailures else { return nil }
        let exponent = min(failures - freeFailures - 1, 30)
        let delay = initialDelay * (1 << exponent)
        return min(delay, maximumDelay)
    }
}
