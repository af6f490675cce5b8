/// Formats NumericDates as RFC 3339 UTC timestamps for messages ("2026-11-20T10:00:00Z").
public enum NumericDateFormatter {
    /// `seconds` since 1970 as `YYYY-MM-DDTHH:MM:SSZ` (fractions kept to milliseconds when present).
    public static func string(_ seconds: Double) -> String {
        guard seconds.isFinite, abs(seconds) < 1e14 else { return String(seconds) }
        let whole = seconds.rounded(.down)
        let (year, month, day, hour, minute, second) = utcComponents(wholeSeconds: Int64(whole))
        func pad(_ v: Int64, _ width: Int) -> String {
            let s = String(v)
            return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
        }
        var out = "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))"
        let millis = Int64(((seconds - whole) * 1000).rounded())
        if millis > 0 && millis < 1000 { out += ".\(pad(millis, 3))" }
        return out + "Z"
    }

    /// The UTC calendar date and time (proleptic Gregorian) of whole `seconds` since 1970,
    /// for callers that format timestamps themselves; valid for any `Int64` day count that
    /// does not overflow (callers bound the input, as ``string(_:)`` does).
    package static func utcComponents(wholeSeconds seconds: Int64)
        -> (year: Int64, month: Int64, day: Int64, hour: Int64, minute: Int64, second: Int64)
    {
        var days = seconds / 86_400
        var rest = seconds % 86_400
        if rest < 0 { rest += 86_400; days -= 1 }
        // Civil-from-days (H. Hinnant), valid for the whole proleptic Gregorian range.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day, rest / 3600, rest / 60 % 60, rest % 60)
    }
}
