import Foundation
import Testing

/// What a test does when a service it needs (a Secret Service, the Python peer, a database)
/// is missing: skip with a visible message, or — when the named environment variable is `1`,
/// as `scripts/test` sets it — fail, so that CI never passes by skipping.
public enum ServiceGate {
    /// Thrown after the failure was recorded (the service was required but missing).
    public struct Unavailable: Error, CustomStringConvertible {
        /// Why the service is missing.
        public let message: String
        /// The message.
        public var description: String { message }
    }

    /// Returns when `available`; otherwise records a failure and throws ``Unavailable`` when
    /// `variable` is `1` in this process's environment, or prints `SKIPPED: message` and
    /// cancels the test.
    public static func require(
        _ available: Bool, otherwise message: String, requiredBy variable: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        if available { return }
        if ProcessInfo.processInfo.environment[variable] == "1" {
            Issue.record("\(variable)=1 but \(message)", sourceLocation: sourceLocation)
            throw Unavailable(message: message)
        }
        print("SKIPPED: \(message)")
        try Test.cancel("skipped: \(message)", sourceLocation: sourceLocation)
    }
}
