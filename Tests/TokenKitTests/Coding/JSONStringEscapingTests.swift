import Testing
@testable import TokenKit
import TokenKitTestSupport

/// The package's one JSON string escaper, as the token writer (standard profile) and the
/// CLI's output (terminal profile) use it.
@Suite("JSON string escaping")
struct JSONStringEscapingTests {
    static func escaped(_ value: String, profile: JSONStringEscaping.Profile = .standard) -> String {
        var out = ByteWriter(capacity: 1)  // the smallest: every escape also exercises growth
        JSONStringEscaping.append(value, profile: profile, to: &out)
        return out.withBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// `text` parsed back by the package's strict parser, which must accept it.
    static func parsed(_ json: String) throws -> JSONValue {
        try StrictJSONParser.parse(Array(json.utf8), maxDepth: 1)
    }

    @Test("quote, backslash and every control character are escaped; plain runs and non-ASCII are copied")
    func escapes() throws {
        #expect(Self.escaped("plain text") == #""plain text""#)
        #expect(Self.escaped("a\"b\\c\nd\re\tf") == #""a\"b\\c\nd\re\tf""#)
        #expect(Self.escaped("\u{0}\u{1}\u{1F}") == #""\u0000\u0001\u001f""#)
        #expect(Self.escaped("é\u{202E}x") == "\"é\u{202E}x\"")
        #expect(Self.escaped("") == #""""#)
        // Every control character round-trips through the package's parser.
        let all = String(decoding: (0..<0x80).map { UInt8($0) }, as: UTF8.self)
        #expect(try Self.parsed(Self.escaped(all)) == .string(all))
    }

    @Test("the standard profile (what TokenKit signs) leaves DEL and every non-ASCII scalar raw")
    func standardLeavesUnsafeTextRaw() {
        #expect(Self.escaped("a\u{7F}b") == "\"a\u{7F}b\"")
        #expect(JSONWriter.string(.string("\u{7F}")) == "\"\u{7F}\"")
        for (name, scalar) in UnsafeTextSamples.all where scalar.value >= 0x7F {
            #expect(Self.escaped("a\(scalar)b") == "\"a\(scalar)b\"", "\(name)")
        }
    }

    @Test("the terminal profile writes each unsafe scalar as \\uXXXX (a surrogate pair above U+FFFF), and the JSON decodes to the same string",
          arguments: UnsafeTextSamples.all.map(\.name))
    func terminalEscapesEachClass(_ name: String) throws {
        let scalar = try #require(UnsafeTextSamples.all.first { $0.name == name }?.scalar)
        let text = "a\(scalar)b"
        let json = Self.escaped(text, profile: .terminal)
        #expect(UnsafeTextSamples.rawSamples(in: json).isEmpty, "\(json.debugDescription)")
        #expect(try Self.parsed(json) == .string(text))
        switch scalar.value {
        case 0x09: #expect(json == #""a\tb""#)
        case 0x0A: #expect(json == #""a\nb""#)
        case 0x0D: #expect(json == #""a\rb""#)
        case 0x1_0000...:
            let units = String(scalar).utf16.map { "\\u" + String($0, radix: 16) }.joined()
            #expect(json == "\"a\(units)b\"")
        default:
            let digits = String(scalar.value, radix: 16)
            #expect(json == "\"a\\u" + String(repeating: "0", count: 4 - digits.count) + digits + "b\"")
        }
    }

    @Test("the terminal profile copies printable text of every script, joined or combined, unchanged")
    func terminalKeepsPrintableText() throws {
        let text = UnsafeTextSamples.printable
        #expect(Self.escaped(text, profile: .terminal) == "\"\(text)\"")
    }

    @Test("terminal JSON of every Unicode scalar parses back to the same text and carries no unsafe scalar raw")
    func terminalRoundTripsAllOfUnicode() throws {
        // In slices the strict parser accepts (strings up to 65,536 bytes).
        let scalars = (0...0x10FFFF).compactMap(Unicode.Scalar.init)
        for start in stride(from: 0, to: scalars.count, by: 4096) {
            var text = String.UnicodeScalarView()
            text.append(contentsOf: scalars[start..<min(start + 4096, scalars.count)])
            let original = String(text)
            let json = Self.escaped(original, profile: .terminal)
            #expect(try Self.parsed(json) == .string(original), "slice from U+\(String(scalars[start].value, radix: 16))")
            let raw = json.unicodeScalars.filter(UntrustedText.isUnsafe)
            #expect(raw.isEmpty, "slice from U+\(String(scalars[start].value, radix: 16)): \(raw.map { String($0.value, radix: 16) })")
        }
    }

    @Test("terminalJSONText of a value escapes keys and nested strings too, and parses to the same value")
    func terminalJSONTextOfValues() throws {
        let hostile = "x\u{202E}y\u{E0041}"
        var object = JSONObject()
        object[hostile] = .array([.string(hostile), .object(JSONObject([("k", .string(hostile))]))])
        let value = JSONValue.object(object)
        let text = value.terminalJSONText
        #expect(UnsafeTextSamples.rawSamples(in: text).isEmpty, "\(text.debugDescription)")
        #expect(try StrictJSONParser.parse(Array(text.utf8), maxDepth: 4) == value)
        #expect(value.jsonText.contains(hostile), "the standard text keeps the scalars raw")
    }

    /// The escaper's rule written one scalar at a time.
    static func reference(_ text: String, profile: JSONStringEscaping.Profile) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x22: out += #"\""#
            case 0x5C: out += #"\\"#
            case 0x0A: out += #"\n"#
            case 0x0D: out += #"\r"#
            case 0x09: out += #"\t"#
            case 0x00..<0x20: out += "\\u00" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
            default:
                if profile == .terminal, UnsafeTextSamples.all.contains(where: { $0.scalar == scalar }) {
                    for unit in String(scalar).utf16 {
                        let digits = String(unit, radix: 16)
                        out += "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
                    }
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    @Test("each character that needs an escape is found wherever it falls in the 8-byte words the scan reads")
    func escapesAtEveryOffset() {
        // Plain ASCII around one special character, at every offset of strings up to 3 words
        // long, with the bytes the word test must not flag (0x20, 0x7E, 0x21, 0x5B, 0x5D) and
        // safe non-ASCII as neighbours.
        let specials: [Unicode.Scalar] = ["\u{0}", "\u{1}", "\t", "\n", "\r", "\u{1F}", "\"", "\\", "\u{7F}", "\u{85}", "\u{AD}",
                                          "\u{202E}", "\u{FEFF}", "\u{E0041}"]
        let neighbours: [Unicode.Scalar] = [" ", "~", "!", "[", "]", "a", "é", "€", "😀"]
        for length in 1...24 {
            for offset in 0..<length {
                for special in specials {
                    var scalars = (0..<length).map { neighbours[$0 % neighbours.count] }
                    scalars[offset] = special
                    var view = String.UnicodeScalarView()
                    view.append(contentsOf: scalars)
                    let text = String(view)
                    for profile in [JSONStringEscaping.Profile.standard, .terminal] {
                        #expect(Self.escaped(text, profile: profile) == Self.reference(text, profile: profile),
                                "length \(length), U+\(String(special.value, radix: 16)) at \(offset), terminal: \(profile == .terminal)")
                    }
                }
            }
        }
    }
}
