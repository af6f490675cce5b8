/// Writing a string as a JSON string literal (RFC 8259 §7): the one escaper of the package,
/// used by ``JSONWriter`` (tokens TokenKit signs) and by the CLI's line-by-line JSON output.
///
/// Escapes `"`, `\`, and every control character (`\n`, `\r`, `\t` by name, the others as
/// `\u00XX` in lower-case hex); everything else, including non-ASCII UTF-8, is copied as is,
/// runs of plain bytes in one piece. DEL (0x7F) needs no escape in JSON; it is escaped only
/// when the caller asks (output meant for terminals), never in what TokenKit signs, so the
/// bytes of a signed token do not depend on who else uses this.
package enum JSONStringEscaping {
    /// Appends `value` as a quoted JSON string.
    package static func append(_ value: String, escapingDelete: Bool = false, to out: inout [UInt8]) {
        let done: Void? = value.utf8.withContiguousStorageIfAvailable { append(utf8: $0, escapingDelete: escapingDelete, to: &out) }
        if done == nil {
            var copy = value
            copy.withUTF8 { append(utf8: $0, escapingDelete: escapingDelete, to: &out) }
        }
    }

    /// Whether `byte` must be escaped. Decided by comparisons, not a table: a shared table is
    /// a reference every caller would retain and release, and the CLI's worker threads call
    /// this for every string they write.
    @inline(__always)
    private static func mustEscape(_ byte: UInt8, escapingDelete: Bool) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || (escapingDelete && byte == 0x7F)
    }

    /// The lower-case hex digit for `nibble` (0...15).
    @inline(__always)
    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }

    private static func append(utf8: UnsafeBufferPointer<UInt8>, escapingDelete: Bool, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var runStart = 0
        var index = nextEscape(in: utf8, from: 0, escapingDelete: escapingDelete)
        while index < utf8.count {
            let byte = utf8[index]
            if runStart < index { out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index])) }
            runStart = index + 1
            out.append(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""): out.append(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\"))
            case 0x0A: out.append(UInt8(ascii: "n"))
            case 0x0D: out.append(UInt8(ascii: "r"))
            case 0x09: out.append(UInt8(ascii: "t"))
            default:
                out.append(UInt8(ascii: "u"))
                out.append(UInt8(ascii: "0"))
                out.append(UInt8(ascii: "0"))
                out.append(hexDigit(byte >> 4))
                out.append(hexDigit(byte & 0x0F))
            }
            index = nextEscape(in: utf8, from: index + 1, escapingDelete: escapingDelete)
        }
        if runStart < utf8.count { out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...])) }
        out.append(UInt8(ascii: "\""))
    }

    /// The index of the first byte at or after `start` that must be escaped (`utf8.count`
    /// if none), found eight bytes at a time (see ``ByteWord``).
    @inline(__always)
    private static func nextEscape(in utf8: UnsafeBufferPointer<UInt8>, from start: Int, escapingDelete: Bool) -> Int {
        var index = ByteWord.skip(utf8, from: start) { w in
            ByteWord.below(0x20, in: w) | ByteWord.equal(to: UInt8(ascii: "\""), in: w) | ByteWord.equal(to: UInt8(ascii: "\\"), in: w)
                | (escapingDelete ? ByteWord.equal(to: 0x7F, in: w) : 0)
        }
        while index < utf8.count, !mustEscape(utf8[index], escapingDelete: escapingDelete) { index += 1 }
        return index
    }
}
