import Foundation
import Synchronization

/// A clock that moves only when its owner moves it: for tests of expiry, skew, cache ages and
/// backoff that must not sleep.
///
/// Safe to read and move from any thread. Guarantees nothing about monotonicity: ``set(_:)``
/// may move it backwards, which is how a test simulates a wall clock that jumps.
public final class ManualClock: TokenClock {
    private let current: Mutex<Date>

    /// A clock standing at `start` (default 2027-01-15T08:00:00Z).
    public init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        current = Mutex(start)
    }

    /// The instant the clock stands at.
    public var now: Date { current.withLock { $0 } }

    /// Moves the clock by `span` (backwards when negative).
    public func advance(by span: Duration) {
        current.withLock { $0 = $0 + span }
    }

    /// Puts the clock at `instant`.
    public func set(_ instant: Date) {
        current.withLock { $0 = instant }
    }
}
