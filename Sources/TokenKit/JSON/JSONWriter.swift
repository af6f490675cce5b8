/// Writes ``JSONValue``s as compact RFC 8259 JSON (UTF-8, no insignificant whitespace,
/// `/` not escaped, control characters as `\u00XX`), members in the object's order. Strings
/// are escaped by the package's one escaper, ``JSONStringEscaping``, with the profile given
/// (``JSONStringEscaping/Profile/standard`` unless the output is meant for a terminal).
enum JSONWriter {
    static func bytes(_ value: JSONValue, profile: JSONStringEscaping.Profile = .standard) -> [UInt8] {
        var bytes: [UInt8] = []
        ByteWriter.withScratch(capacity: 1024) { out in
            write(value, profile: profile, into: &out)
            bytes = out.array
        }
        return bytes
    }

    static func string(_ value: JSONValue, profile: JSONStringEscaping.Profile = .standard) -> String {
        String(decoding: bytes(value, profile: profile), as: UTF8.self)
    }

    static func write(_ value: JSONValue, profile: JSONStringEscaping.Profile = .standard, into out: inout ByteWriter) {
        switch value {
        case .null: out.append("null")
        case .bool(let b): out.append(b ? "true" : "false")
        case .number(let n): out.append(utf8Of: n.literal)
        case .string(let s): JSONStringEscaping.append(s, profile: profile, to: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                write(element, profile: profile, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            var first = true
            object.forEachMember { key, value in
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                JSONStringEscaping.append(key, profile: profile, to: &out)
                out.append(UInt8(ascii: ":"))
                write(value, profile: profile, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }
}
