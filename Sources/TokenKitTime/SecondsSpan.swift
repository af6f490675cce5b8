/// A span together with its length in seconds, converted once when the span is set: for
/// options whose checks run once per token and count in seconds, as NumericDates do
/// (validation's leeway and maximum age, the audit's lifetime bounds).
package struct SecondsSpan: Sendable {
    /// The span as given.
    package let duration: Duration
    /// ``duration`` in seconds.
    package let seconds: Double

    /// `duration`, with its seconds computed now.
    package init(_ duration: Duration) {
        self.duration = duration
        self.seconds = duration.seconds
    }
}
