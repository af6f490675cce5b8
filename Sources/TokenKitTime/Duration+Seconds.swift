import Foundation

/// The one conversion between TokenKit's public `Duration`s and the seconds that claims,
/// HTTP headers and the C libraries count in.
extension Duration {
    /// The span in seconds, with attosecond components kept as a fraction.
    package var seconds: Double {
        let (whole, fraction) = components
        return Double(whole) + Double(fraction) / 1e18
    }

    /// `seconds` as a `Duration`, never trapping: NaN becomes zero, and anything beyond
    /// ±`Int64.max` seconds (the infinities included) is clamped to that bound.
    package static func seconds(clamping seconds: Double) -> Duration {
        guard !seconds.isNaN else { return .zero }
        let limit = Double(Int64.max)
        return .seconds(min(max(seconds, -limit), limit))
    }

    /// The span in whole milliseconds, rounded toward zero (saturating at the `Int64` range),
    /// for C and wire APIs that count in milliseconds.
    package var wholeMilliseconds: Int64 { whole(unitsPerSecond: 1_000) }

    /// The span in whole nanoseconds, rounded toward zero (saturating at the `Int64` range),
    /// for APIs that count in nanoseconds (NIO's deadlines).
    package var wholeNanoseconds: Int64 { whole(unitsPerSecond: 1_000_000_000) }

    /// The span in whole units of `1 / unitsPerSecond` s (a divisor of 10^18), rounded toward
    /// zero, saturating at the `Int64` range.
    private func whole(unitsPerSecond units: Int64) -> Int64 {
        let (whole, fraction) = components
        let (scaled, overflow) = whole.multipliedReportingOverflow(by: units)
        guard !overflow else { return whole < 0 ? .min : .max }
        let (total, overflowAgain) = scaled.addingReportingOverflow(fraction / (1_000_000_000_000_000_000 / units))
        return overflowAgain ? (whole < 0 ? .min : .max) : total
    }

    /// This span, or zero when it is negative (a tolerance or a bound is never negative).
    package var clampedToZero: Duration { self < .zero ? .zero : self }
}

extension Date {
    /// `instant` moved forward by `span` (backwards when `span` is negative).
    package static func + (instant: Date, span: Duration) -> Date {
        instant.addingTimeInterval(span.seconds)
    }
}
