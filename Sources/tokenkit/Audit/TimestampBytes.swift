import TokenKit

/// RFC 3339 UTC timestamps (`2026-11-20T10:00:00Z`) written straight into a byte buffer,
/// for table rows; the same text as ``NumericDateFormatter/string(_:)`` for whole seconds.
enum TimestampBytes {
    /// Appends `seconds` since 1970 as a timestamp; fractional or out-of-range values use
    /// ``NumericDateFormatter``.
    static func append(_ seconds: Double, into out: inout ByteWriter) {
        guard seconds.isFinite, seconds == seconds.rounded(), abs(seconds) < 2.5e11 else {
            return out.append(utf8Of: NumericDateFormatter.string(seconds))
        }
        let (year, month, day, hour, minute, second) = NumericDateFormatter.utcComponents(wholeSeconds: Int64(seconds))
        guard (0...9999).contains(year) else {
            return out.append(utf8Of: NumericDateFormatter.string(seconds))
        }
        digits(year, 4, &out); out.append(UInt8(ascii: "-"))
        digits(month, 2, &out); out.append(UInt8(ascii: "-"))
        digits(day, 2, &out); out.append(UInt8(ascii: "T"))
        digits(hour, 2, &out); out.append(UInt8(ascii: ":"))
        digits(minute, 2, &out); out.append(UInt8(ascii: ":"))
        digits(second, 2, &out); out.append(UInt8(ascii: "Z"))
    }

    private static func digits(_ value: Int64, _ width: Int, _ out: inout ByteWriter) {
        var divisor: Int64 = 1
        for _ in 1..<width { divisor *= 10 }
        var value = value
        while divisor > 0 {
            out.append(UInt8(ascii: "0") + UInt8(value / divisor))
            value %= divisor
            divisor /= 10
        }
    }
}
