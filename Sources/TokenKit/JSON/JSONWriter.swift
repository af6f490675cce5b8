/// Writes ``JSONValue``s as compact RFC 8259 JSON (UTF-8, no insignificant whitespace,
/// `/` not escaped, control characters as `\u00XX`), members in the object's order.
enum JSONWriter {
    static func bytes(_ value: JSONValue) -> [UInt8] {
        var bytes: [UInt8] = []
        ByteWriter.withScratch(capacity: 1024) { out in
            write(value, into: &out)
            bytes = out.array
        }
        return bytes
    }

    static func string(_ value: JSONValue) -> String { String(decoding: bytes(value), as: UTF8.self) }

    static func write(_ value: JSONValue, into out: inout ByteWriter) {
        switch value {
        case .null: out.append("null")
        case .bool(let b): out.append(b ? "true" : "false")
        case .number(let n): out.append(utf8Of: n.literal)
        case .string(let s): writeString(s, into: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                write(element, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            var first = true
            object.forEachMember { key, value in
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                writeString(key, into: &out)
                out.append(UInt8(ascii: ":"))
                write(value, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    static func writeString(_ s: String, into out: inout ByteWriter) {
        JSONStringEscaping.append(s, to: &out)
    }
}
