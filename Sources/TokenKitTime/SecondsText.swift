import Foundation

/// Seconds as people read them in messages: whole numbers without a fraction ("60"), others
/// with the digits they have ("0.3", "1.25"), never rounded to zero.
package enum SecondsText {
    /// `seconds` formatted for a message; append " s" yourself.
    package static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int(seconds)) : String(format: "%g", seconds)
    }

    /// `span` in seconds, formatted as the seconds are above.
    package static func format(_ span: Duration) -> String {
        format(span.seconds)
    }
}
