/// Short human renderings of durations and numbers for the readable audit output.
enum HumanDuration {
    /// `seconds` as at most two units: `45s`, `15m 30s`, `1h 5m`, `7d 2h`; negative values
    /// get a leading `-`. Fractions of a second are dropped.
    static func string(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "?" }
        let sign = seconds < 0 ? "-" : ""
        let total = Int64(min(abs(seconds), 9e15).rounded(.down))
        let units: [(Int64, String)] = [(86_400, "d"), (3_600, "h"), (60, "m"), (1, "s")]
        for (index, (size, name)) in units.enumerated() where total >= size || size == 1 {
            let major = total / size
            let rest = total % size
            guard index + 1 < units.count else { return "\(sign)\(major)\(name)" }
            let (minorSize, minorName) = units[index + 1]
            let minor = rest / minorSize
            return minor == 0 ? "\(sign)\(major)\(name)" : "\(sign)\(major)\(name) \(minor)\(minorName)"
        }
        return "\(sign)0s"
    }

    /// `value` with thousands separators: `1,234,567`.
    static func count(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (index, character) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(character)
        }
        return value < 0 ? "-" + out : out
    }
}
