import TokenKit

/// RFC 3339 UTC timestamps (`2026-11-20T10:00:00Z`) written straight into a byte buffer,
/// for table rows; the same text as ``NumericDateFormatter/string(_:)`` for whole seconds.
enum TimestampBytes {
    /// Appends `seconds` since 1970 as a timestamp; fractional or out-of-range values use
    /// ``NumericDateFormatter``.
    static func append(_ seconds: Double, into out: inout [UInt8]) {
        guard seconds.isFinite, seconds == seconds.rounded(), abs(seconds) < 2.5e11 else {
            return out.append(contentsOf: NumericDateFormatter.string(seconds).utf8)
        }
        let whole = Int64(seconds)
        var days = whole / 86_400
        var rest = whole % 86_400
        if rest < 0 { rest += 86_400; days -= 1 }
        // Civil-from-days (H. Hinnant).
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        guard (0...9999).contains(year) else {
            return out.append(contentsOf: NumericDateFormatter.string(seconds).utf8)
        }
        digits(year, 4, &out); out.append(UInt8(ascii: "-"))
        digits(month, 2, &out); out.append(UInt8(ascii: "-"))
        digits(day, 2, &out); out.append(UInt8(ascii: "T"))
        digits(rest / 3600, 2, &out); out.append(UInt8(ascii: ":"))
        digits(rest / 60 % 60, 2, &out); out.append(UInt8(ascii: ":"))
        digits(rest % 60, 2, &out); out.append(UInt8(ascii: "Z"))
    }

    private static func digits(_ value: Int64, _ width: Int, _ out: inout [UInt8]) {
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
