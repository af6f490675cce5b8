import TokenKit

/// Appending JSON fragments to a byte buffer, for fast line-by-line JSON output.
enum JSONBytes {
    /// Appends fixed ASCII text (punctuation and key names), in one piece.
    @inline(__always)
    static func fixed(_ text: StaticString, into out: inout [UInt8]) {
        out.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends a JSON string, escaping `"`, `\\`, DEL and control characters (RFC 8259), with
    /// the package's one escaper (DEL escaped too: this output goes to terminals and pipes).
    @inline(__always)
    static func string(_ value: String, into out: inout [UInt8]) {
        JSONStringEscaping.append(value, escapingDelete: true, to: &out)
    }

    /// Appends text that needs no escaping (a number literal already checked as JSON).
    static func raw(_ text: String, into out: inout [UInt8]) {
        var text = text
        text.withUTF8 { out.append(contentsOf: $0) }
    }

    /// Appends a string or `null`.
    static func optionalString(_ value: String?, into out: inout [UInt8]) {
        if let value { string(value, into: &out) } else { null(into: &out) }
    }

    /// Appends `null`.
    static func null(into out: inout [UInt8]) {
        fixed("null", into: &out)
    }

    /// Appends a decimal integer.
    static func integer(_ value: Int, into out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[19 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[(20 - count)...]))
        }
    }

    /// Appends seconds: an integer when whole (up to 2^53), else rounded to milliseconds.
    static func seconds(_ value: Double?, into out: inout [UInt8]) {
        guard let value, value.isFinite else { return null(into: &out) }
        if value == value.rounded(), abs(value) < 9_007_199_254_740_992 {
            integer(Int(value), into: &out)
        } else {
            let rounded = (value * 1000).rounded() / 1000
            if rounded == rounded.rounded(), abs(rounded) < 9_007_199_254_740_992 {
                integer(Int(rounded), into: &out)
            } else {
                out.append(contentsOf: "\(rounded)".utf8)
            }
        }
    }
}
