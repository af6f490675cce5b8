import TokenKit

/// Appending JSON fragments to a ``ByteWriter``, for fast line-by-line JSON output.
enum JSONBytes {
    /// Appends fixed ASCII text (punctuation and key names), in one piece.
    @inline(__always)
    static func fixed(_ text: StaticString, into out: inout ByteWriter) {
        out.append(text)
    }

    /// Appends a JSON string with the package's one escaper and its terminal profile: `"`,
    /// `\\` and C0 controls as RFC 8259 requires, and every scalar of `UntrustedText`'s class
    /// (DEL, C1, U+2028/U+2029, bidirectional and invisible format characters) as `\uXXXX`,
    /// since this output goes to terminals and pipes.
    @inline(__always)
    static func string(_ value: String, into out: inout ByteWriter) {
        JSONStringEscaping.append(value, profile: .terminal, to: &out)
    }

    /// Appends text that needs no escaping (a number literal already checked as JSON).
    static func raw(_ text: String, into out: inout ByteWriter) {
        out.append(utf8Of: text)
    }

    /// Appends a string or `null`.
    static func optionalString(_ value: String?, into out: inout ByteWriter) {
        if let value { string(value, into: &out) } else { null(into: &out) }
    }

    /// Appends `null`.
    static func null(into out: inout ByteWriter) {
        fixed("null", into: &out)
    }

    /// Appends a decimal integer.
    static func integer(_ value: Int, into out: inout ByteWriter) {
        // At most 20 characters: a sign and the 19 digits of Int.min's magnitude.
        out.write(atMost: 20) { start in
            var magnitude = value.magnitude
            var digits = 0
            var rest = magnitude
            repeat { digits += 1; rest /= 10 } while rest > 0
            let sign = value < 0 ? 1 : 0
            if sign == 1 { start[0] = UInt8(ascii: "-") }
            var index = sign + digits
            repeat {
                index -= 1
                start[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            return sign + digits
        }
    }

    /// Appends seconds: an integer when whole (up to 2^53), else rounded to milliseconds.
    static func seconds(_ value: Double?, into out: inout ByteWriter) {
        guard let value, value.isFinite else { return null(into: &out) }
        if value == value.rounded(), abs(value) < 9_007_199_254_740_992 {
            integer(Int(value), into: &out)
        } else {
            let rounded = (value * 1000).rounded() / 1000
            if rounded == rounded.rounded(), abs(rounded) < 9_007_199_254_740_992 {
                integer(Int(rounded), into: &out)
            } else {
                out.append(utf8Of: "\(rounded)")
            }
        }
    }
}
