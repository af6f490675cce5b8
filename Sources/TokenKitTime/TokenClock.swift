import Foundation

/// Where TokenKit gets "now": the one clock protocol of the whole package (token validation,
/// signing-key rotation, the stores' timestamps, the auth provider's expiry decisions, the
/// remote key sources' cache ages).
///
/// Instants are `Date`s and spans are `Duration`s everywhere in TokenKit's API. Inject
/// ``FixedClock`` or ``ManualClock`` in tests and tools so that expiry, skew and backoff are
/// decided without sleeping.
///
/// Guarantees nothing about monotonicity: expiry times are wall-clock instants, so a clock
/// that jumps moves every decision with it. Waiting (timeouts, backoff sleeps) never uses this
/// clock; it uses the system's monotonic `ContinuousClock`.
public protocol TokenClock: Sendable {
    /// The current instant.
    var now: Date { get }
}

/// The system's wall clock (`Date()`).
public struct SystemClock: TokenClock {
    /// Creates the system clock.
    public init() {}
    /// `Date()`.
    public var now: Date { Date() }
}

/// A clock stopped at one instant (for tools such as `tokenkit verify --now`, and for tests).
public struct FixedClock: TokenClock {
    /// The instant this clock always answers.
    public let now: Date
    /// A clock stopped at `instant`.
    public init(_ instant: Date) { self.now = instant }
}
