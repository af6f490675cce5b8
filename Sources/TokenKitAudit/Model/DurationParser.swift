/// Parses durations written as `90s`, `15m`, `1h`, `7d` or plain seconds (`3600`).
///
/// Guarantees: accepts only a non-negative decimal integer optionally followed by one unit
/// letter (`s`, `m`, `h`, `d`, lowercase); rejects signs, spaces, fractions, empty input
/// and values that overflow `Int64` seconds. Does not accept compound forms like `1h30m`.
public enum DurationParser {
    /// The number of seconds `text` denotes, or `nil` when it is not a valid duration.
    public static func seconds(_ text: String) -> Int64? {
        var digits = Substring(text)
        var multiplier: Int64 = 1
        switch text.last {
        case "s": digits = digits.dropLast()
        case "m": digits = digits.dropLast(); multiplier = 60
        case "h": digits = digits.dropLast(); multiplier = 3_600
        case "d": digits = digits.dropLast(); multiplier = 86_400
        default: break
        }
        guard !digits.isEmpty, digits.utf8.count <= 19,
              digits.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
              let value = Int64(digits) else { return nil }
        let (product, overflow) = value.multipliedReportingOverflow(by: multiplier)
        return overflow ? nil : product
    }
}
