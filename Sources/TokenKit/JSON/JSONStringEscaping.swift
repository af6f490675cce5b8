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
    package static func append(_ value: String, escapingDelete: Bool = false, to out: inout ByteWriter) {
        let done: Void? = value.utf8.withContiguousStorageIfAvailable { append(utf8: $0, escapingDelete: escapingDelete, to: &out) }
        if done == nil {
            var copy = value
            copy.withUTF8 { append(utf8: $0, escapingDelete: escapingDelete, to: &out) }
        }
    }

    /// Appends the bytes `utf8` as a quoted JSON string.
    private static func append(utf8: UnsafeBufferPointer<UInt8>, escapingDelete: Bool, to out: inout ByteWriter) {
        // At most six bytes per input byte (`\u00XX`) plus the quotes.
        let (bound, overflow) = utf8.count.multipliedReportingOverflow(by: 6)
        precondition(!overflow, "string too long to escape")
        out.write(atMost: bound + 2) { write(utf8, escapingDelete: escapingDelete, to: $0) }
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

    /// Writes the quoted, escaped string to `out` (room for `6 * utf8.count + 2` bytes) and
    /// returns the number of bytes written. Plain runs are copied in one piece.
    private static func write(_ utf8: UnsafeBufferPointer<UInt8>, escapingDelete: Bool, to out: UnsafeMutablePointer<UInt8>) -> Int {
        var o = 0
        @inline(__always) func put(_ byte: UInt8) { out[o] = byte; o += 1 }
        put(UInt8(ascii: "\""))
        var runStart = 0
        var index = nextEscape(in: utf8, from: 0, escapingDelete: escapingDelete)
        while true {
            if runStart < index, let base = utf8.baseAddress {
                (out + o).update(from: base + runStart, count: index - runStart)
                o += index - runStart
            }
            guard index < utf8.count else { break }
            let byte = utf8[index]
            put(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""): put(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): put(UInt8(ascii: "\\"))
            case 0x0A: put(UInt8(ascii: "n"))
            case 0x0D: put(UInt8(ascii: "r"))
            case 0x09: put(UInt8(ascii: "t"))
            default:
                put(UInt8(ascii: "u"))
                put(UInt8(ascii: "0"))
                put(UInt8(ascii: "0"))
                put(hexDigit(byte >> 4))
                put(hexDigit(byte & 0x0F))
            }
            runStart = index + 1
            index = nextEscape(in: utf8, from: index + 1, escapingDelete: escapingDelete)
        }
        put(UInt8(ascii: "\""))
        return o
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
