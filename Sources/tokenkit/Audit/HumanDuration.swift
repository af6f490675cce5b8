import TokenKit
/// Short human renderings of durations and numbers for the readable audit output.
enum HumanDuration {
    /// The unit of index 0 (days) to 3 (seconds): size in seconds and letter.
    private static func unit(_ index: Int) -> (size: Int64, name: UInt8) {
        switch index {
        case 0: (86_400, UInt8(ascii: "d"))
        case 1: (3_600, UInt8(ascii: "h"))
        case 2: (60, UInt8(ascii: "m"))
        default: (1, UInt8(ascii: "s"))
        }
    }

    /// `seconds` as at most two units: `45s`, `15m 30s`, `1h 5m`, `7d 2h`; negative values
    /// get a leading `-`. Fractions of a second are dropped.
    static func string(_ seconds: Double) -> String {
        var text = ""
        ByteWriter.withScratch(capacity: 64) { out in
            append(seconds, into: &out)
            text = out.withBytes { String(decoding: $0, as: UTF8.self) }
        }
        return text
    }

    /// Appends what ``string(_:)`` returns, without building a `String`.
    static func append(_ seconds: Double, into out: inout ByteWriter) {
        guard seconds.isFinite else { return out.append(UInt8(ascii: "?")) }
        if seconds <= -1 { out.append(UInt8(ascii: "-")) }
        let total = Int64(min(abs(seconds), 9e15).rounded(.down))
        for index in 0..<4 where total >= unit(index).size || index == 3 {
            let (size, name) = unit(index)
            JSONBytes.integer(Int(total / size), into: &out)
            out.append(name)
            if index < 3 {
                let (minorSize, minorName) = unit(index + 1)
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
