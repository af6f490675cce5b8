/// Writing a string as a JSON string literal (RFC 8259 §7): the one escaper of the package,
/// used by ``JSONWriter`` (tokens TokenKit signs) and by the CLI's line-by-line JSON output.
///
/// Escapes `"`, `\`, and every control character (`\n`, `\r`, `\t` by name, the others as
/// `\u00XX` in lower-case hex); everything else, including non-ASCII UTF-8, is copied as is,
/// runs of plain bytes in one piece. DEL (0x7F) needs no escape in JSON; it is escaped only
/// when the caller asks (output meant for terminals), never in what TokenKit signs, so the
/// bytes of a signed token do not depend on who else uses this.
package enum JSONStringEscaping {
    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)
    /// Whether a byte must be escaped, without and with DEL.
    private static let mustEscape: [Bool] = (0...255).map { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }
    private static let mustEscapeWithDelete: [Bool] = (0...255).map { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F }

    /// Appends `value` as a quoted JSON string.
    package static func append(_ value: String, escapingDelete: Bool = false, to out: inout [UInt8]) {
        let done: Void? = value.utf8.withContiguousStorageIfAvailable { append(utf8: $0, escapingDelete: escapingDelete, to: &out) }
        if done == nil {
            var copy = value
            copy.withUTF8 { append(utf8: $0, escapingDelete: escapingDelete, to: &out) }
        }
    }

    private static func append(utf8: UnsafeBufferPointer<UInt8>, escapingDelete: Bool, to out: inout [UInt8]) {
        (escapingDelete ? mustEscapeWithDelete : mustEscape).withUnsafeBufferPointer { mustEscape in
            out.append(UInt8(ascii: "\""))
            var runStart = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard mustEscape[Int(byte)] else { continue }
                if runStart < index { out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index])) }
                runStart = index + 1
                switch byte {
                case UInt8(ascii: "\""): out.append(contentsOf: [0x5C, 0x22])
                case UInt8(ascii: "\\"): out.append(contentsOf: [0x5C, 0x5C])
                case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
                case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
                case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
                default:
                    out.append(contentsOf: [0x5C, UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                            hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]])
                }
            }
            if runStart < utf8.count { out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...])) }
            out.append(UInt8(ascii: "\""))
        }
    }
}
