/// Short human renderings of durations and numbers for the readable audit output.
enum HumanDuration {
    private static let units: [(size: Int64, name: UInt8)] = [
        (86_400, UInt8(ascii: "d")), (3_600, UInt8(ascii: "h")), (60, UInt8(ascii: "m")), (1, UInt8(ascii: "s")),
    ]

    /// `seconds` as at most two units: `45s`, `15m 30s`, `1h 5m`, `7d 2h`; negative values
    /// get a leading `-`. Fractions of a second are dropped.
    static func string(_ seconds: Double) -> String {
        var out: [UInt8] = []
        append(seconds, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends what ``string(_:)`` returns, without building a `String`.
    static func append(_ seconds: Double, into out: inout [UInt8]) {
        guard seconds.isFinite else { return out.append(UInt8(ascii: "?")) }
        if seconds <= -1 { out.append(UInt8(ascii: "-")) }
        let total = Int64(min(abs(seconds), 9e15).rounded(.down))
        for index in units.indices where total >= units[index].size || index == units.count - 1 {
            let (size, name) = units[index]
            JSONBytes.integer(Int(total / size), into: &out)
            out.append(name)
            if index + 1 < units.count {
                let (minorSize, minorName) = units[index + 1]
                let minor = total % size / minorSize
                if minor != 0 {
                    out.append(UInt8(ascii: " "))
                    JSONBytes.integer(Int(minor), into: &out)
                    out.append(minorName)
                }
            }
            return
        }
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
