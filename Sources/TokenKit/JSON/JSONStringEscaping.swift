/// Writing a string as a JSON string literal (RFC 8259 §7): the one escaper of the package,
/// used by ``JSONWriter`` (tokens TokenKit signs, JWKs, HTTP bodies) and by the CLI's JSON
/// output (`decode`, `verify`, `audit --json`).
///
/// Two profiles, one code path:
/// - ``Profile/standard`` escapes what RFC 8259 requires: `"`, `\` and the C0 controls
///   (`\n`, `\r`, `\t` by name, the others as `\u00XX` in lower-case hex); every other byte,
///   including DEL and non-ASCII UTF-8, is copied as is. What TokenKit signs uses it, so the
///   bytes of a signed token do not depend on who else uses this escaper.
/// - ``Profile/terminal`` also writes every scalar of ``UntrustedText``'s class (DEL, C1
///   controls, U+2028/U+2029, bidirectional and invisible format characters…) as `\uXXXX`
///   (a surrogate pair `\uD8xx\uDCxx` above U+FFFF). The output is still valid JSON and
///   decodes to exactly the same string; it only never carries those scalars raw to a
///   terminal or a pipe.
///
/// Runs of plain bytes are found eight bytes at a time (``ByteWord``) and copied in one
/// piece; with the terminal profile a non-ASCII scalar stops the fast scan only to be
/// classified, and is copied when it is not in the class.
package enum JSONStringEscaping {
    /// Which characters are escaped (see the type). A struct, so profiles can be added.
    package struct Profile: Sendable, Equatable {
        /// Whether the ``UntrustedText`` class is escaped too.
        let escapesUnsafeText: Bool

        /// RFC 8259's required escapes only: what TokenKit signs and serves.
        package static let standard = Profile(escapesUnsafeText: false)
        /// Also every scalar of ``UntrustedText``'s class: output shown to people.
        package static let terminal = Profile(escapesUnsafeText: true)
    }

    /// Appends `value` as a quoted JSON string.
    package static func append(_ value: String, profile: Profile = .standard, to out: inout ByteWriter) {
        let terminal = profile.escapesUnsafeText
        let done: Void? = value.utf8.withContiguousStorageIfAvailable { append(utf8: $0, terminal: terminal, to: &out) }
        if done == nil {
            var copy = value
            copy.withUTF8 { append(utf8: $0, terminal: terminal, to: &out) }
        }
    }

    /// Appends the bytes `utf8` (valid UTF-8: they come from a `String`) as a quoted JSON
    /// string.
    private static func append(utf8: UnsafeBufferPointer<UInt8>, terminal: Bool, to out: inout ByteWriter) {
        // At most six bytes per input byte (`\u00XX` for one byte; a 2-, 3- or 4-byte scalar
        // takes at most 6, 6 or 12) plus the quotes.
        let (bound, overflow) = utf8.count.multipliedReportingOverflow(by: 6)
        precondition(!overflow, "string too long to escape")
        out.write(atMost: bound + 2) { write(utf8, terminal: terminal, to: $0) }
    }

    /// Whether the ASCII `byte` must be escaped. Decided by comparisons, not a table: a shared
    /// table is a reference every caller would retain and release, and the CLI's worker
    /// threads call this for every string they write.
    @inline(__always)
    private static func mustEscape(_ byte: UInt8, terminal: Bool) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || (terminal && byte == 0x7F)
    }

    /// The lower-case hex digit for `nibble` (0...15).
    @inline(__always)
    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }

    /// Writes the quoted, escaped string to `out` (room for `6 * utf8.count + 2` bytes) and
    /// returns the number of bytes written. Plain runs are copied in one piece.
    private static func write(_ utf8: UnsafeBufferPointer<UInt8>, terminal: Bool, to out: UnsafeMutablePointer<UInt8>) -> Int {
        var o = 0
        @inline(__always) func put(_ byte: UInt8) { out[o] = byte; o += 1 }
        @inline(__always) func putUnit(_ unit: UInt32) {
            put(UInt8(ascii: "\\"))
            put(UInt8(ascii: "u"))
            put(hexDigit(UInt8((unit >> 12) & 0x0F)))
            put(hexDigit(UInt8((unit >> 8) & 0x0F)))
            put(hexDigit(UInt8((unit >> 4) & 0x0F)))
            put(hexDigit(UInt8(unit & 0x0F)))
        }
        put(UInt8(ascii: "\""))
        var runStart = 0
        var index = nextEscape(in: utf8, from: 0, terminal: terminal)
        while true {
            if runStart < index, let base = utf8.baseAddress {
                (out + o).update(from: base + runStart, count: index - runStart)
                o += index - runStart
            }
            guard index < utf8.count else { break }
            let byte = utf8[index]
            if byte >= 0x80 {
                // Only the terminal profile stops here: a scalar of the unsafe class.
                let (scalar, length) = Self.scalar(in: utf8, at: index)
                if scalar.value > 0xFFFF {
                    let offset = scalar.value - 0x1_0000
                    putUnit(0xD800 + (offset >> 10))
                    putUnit(0xDC00 + (offset & 0x3FF))
                } else {
                    putUnit(scalar.value)
                }
                runStart = index + length
            } else {
                switch byte {
                case UInt8(ascii: "\""): put(UInt8(ascii: "\\")); put(UInt8(ascii: "\""))
                case UInt8(ascii: "\\"): put(UInt8(ascii: "\\")); put(UInt8(ascii: "\\"))
                case 0x0A: put(UInt8(ascii: "\\")); put(UInt8(ascii: "n"))
                case 0x0D: put(UInt8(ascii: "\\")); put(UInt8(ascii: "r"))
                case 0x09: put(UInt8(ascii: "\\")); put(UInt8(ascii: "t"))
                default: putUnit(UInt32(byte))
                }
                runStart = index + 1
            }
            index = nextEscape(in: utf8, from: runStart, terminal: terminal)
        }
        put(UInt8(ascii: "\""))
        return o
    }

    /// The index of the first byte at or after `start` that starts something to escape
    /// (`utf8.count` if none), found eight bytes at a time (see ``ByteWord``). With the
    /// terminal profile, each non-ASCII scalar met is classified and skipped when safe.
    @inline(__always)
    private static func nextEscape(in utf8: UnsafeBufferPointer<UInt8>, from start: Int, terminal: Bool) -> Int {
        var index = start
        scan: while true {
            index = ByteWord.skip(utf8, from: index) { w in
                ByteWord.below(0x20, in: w) | ByteWord.equal(to: UInt8(ascii: "\""), in: w) | ByteWord.equal(to: UInt8(ascii: "\\"), in: w)
                    | (terminal ? ByteWord.equal(to: 0x7F, in: w) | ByteWord.nonASCII(w) : 0)
            }
            while index < utf8.count {
                let byte = utf8[index]
                if terminal && byte >= 0x80 {
                    let (scalar, length) = Self.scalar(in: utf8, at: index)
                    if UntrustedText.isUnsafe(scalar) { return index }
                    index += length
                    continue scan
                }
                if mustEscape(byte, terminal: terminal) { return index }
                index += 1
            }
            return index
        }
    }

    /// The scalar whose UTF-8 starts at `index` and its length in bytes. The bytes come from
    /// a `String`, so they are valid UTF-8; should they not be, the byte is taken alone as
    /// U+FFFD (never read past the buffer).
    @inline(__always)
    private static func scalar(in utf8: UnsafeBufferPointer<UInt8>, at index: Int) -> (Unicode.Scalar, Int) {
        let lead = utf8[index]
        let length = lead < 0xE0 ? 2 : (lead < 0xF0 ? 3 : 4)
        guard lead >= 0xC2, index + length <= utf8.count else { return ("\u{FFFD}", 1) }
        var value = UInt32(lead) & (length == 2 ? 0x1F : (length == 3 ? 0x0F : 0x07))
        for offset in 1..<length { value = value << 6 | UInt32(utf8[index + offset] & 0x3F) }
        return (Unicode.Scalar(value) ?? "\u{FFFD}", length)
    }
}
