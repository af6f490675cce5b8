import Foundation

/// The source of wall-clock time for expiry decisions.
///
/// Inject a manual clock in tests so that expiry, skew and backoff are decided without
/// sleeping. Guarantees nothing about monotonicity: expiry times are wall-clock instants.
public protocol AuthClock: Sendable {
    /// The current instant.
    var now: Date { get }
}

/// The system's wall clock (`Date()`).
public struct SystemAuthClock: AuthClock {
    /// Creates the system clock.
    public init() {}
    /// `Date()`.
    public var now: Date { Date() }
}
