/// Limits that keep parsing of hostile input fast and bounded.
public struct ParsingLimits: Sendable, Hashable {
    /// Largest accepted compact token, in bytes (default 32 KiB).
    public var maxTokenBytes: Int
    /// Deepest accepted nesting of arrays and objects in header and payload (default 16).
    public var maxDepth: Int

    /// Creates limits; values below 1 are raised to 1.
    public init(maxTokenBytes: Int = 32 * 1024, maxDepth: Int = 16) {
        self.maxTokenBytes = max(1, maxTokenBytes)
        self.maxDepth = max(1, maxDepth)
    }

    /// 32 KiB tokens, nesting depth 16.
    public static let `default` = ParsingLimits()
}

/// A strict RFC 8259 parser: valid UTF-8 only, no duplicate member names (compared after
/// unescaping), no unpaired surrogate escapes, no trailing content, bounded nesting.
/// Every failure carries a reason with a byte offset; none echoes the input.
struct StrictJSONParser {
    struct Failure: Error, Sendable {
        let reason: String
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private let maxDepth: Int

    private init(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    /// Parses one JSON text that must be an object.
    static func parseObject(_ input: [UInt8], maxDepth: Int) throws(Failure) -> JSONObject {
        let value = try parse(input, maxDepth: maxDepth)
        guard case .object(let object) = value else { throw Failure(reason: "expected a JSON object, found \(value.typeName)") }
        return object
    }

    /// Parses one JSON text of any type.
    static func parse(_ input: [UInt8], maxDepth: Int) throws(Failure) -> JSONValue {
        try input.withUnsafeBufferPointer { buffer throws(Failure) in
            var parser = StrictJSONParser(buffer, maxDepth: maxDepth)
            parser.skipWhitespace()
            let value = try parser.parseValue(depth: 0)
            parser.skipWhitespace()
            guard parser.index == buffer.count else { throw parser.fail("unexpected content after the JSON value") }
            return value
        }
    }

    private func fail(_ reason: String) -> Failure { Failure(reason: "\(reason) at offset \(index)") }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func parseValue(depth: Int) throws(Failure) -> JSONValue {
        guard index < bytes.count else { throw fail("unexpected end of JSON") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return .object(try parseObject(depth: depth + 1))
        case UInt8(ascii: "["): return .array(try parseArray(depth: depth + 1))
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw fail("unexpected character")
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(Failure) {
        let length = literal.utf8CodeUnitCount
        guard index + length <= bytes.count else { throw fail("unexpected end of JSON") }
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: length)
        for i in 0..<length where bytes[index + i] != expected[i] { throw fail("invalid literal") }
        index += length
    }

    private mutating func parseObject(depth: Int) throws(Failure) -> JSONObject {
        guard depth <= maxDepth else { throw fail("JSON nesting deeper than \(maxDepth)") }
        index += 1  // {
        var object = JSONObject()
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return object }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail("expected a member name") }
            let nameOffset = index
            let name = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail("expected ':'") }
            index += 1
            skipWhitespace()
            let value = try parseValue(depth: depth)
            guard object.insertNew(name, value) else {
                throw Failure(reason: "duplicate member name \"\(Self.shortened(name))\" at offset \(nameOffset)")
            }
            skipWhitespace()
            guard index < bytes.count else { throw fail("unexpected end of JSON") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return object }
            throw fail("expected ',' or '}'")
        }
    }

    private mutating func parseArray(depth: Int) throws(Failure) -> [JSONValue] {
        guard depth <= maxDepth else { throw fail("JSON nesting deeper than \(maxDepth)") }
        index += 1  // [
        var array: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return array }
        while true {
            skipWhitespace()
            array.append(try parseValue(depth: depth))
            skipWhitespace()
            guard index < bytes.count else { throw fail("unexpected end of JSON") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return array }
            throw fail("expected ',' or ']'")
        }
    }

    private mutating func parseNumber() throws(Failure) -> JSONNumber {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count else { throw fail("incomplete number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else if isDigit(bytes[index]) {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        } else {
            throw fail("invalid number")
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw fail("invalid number fraction") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw fail("invalid number exponent") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        guard index - start <= 64 else { throw Failure(reason: "number longer than 64 characters at offset \(start)") }
        return JSONNumber(checkedLiteral: String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private mutating func parseString() throws(Failure) -> String {
        index += 1  // opening quote
        let start = index
        // Fast path: no escapes and ASCII only.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let s = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                index += 1
                return s
            }
            if byte == UInt8(ascii: "\\") || byte >= 0x80 || byte < 0x20 { break }
            index += 1
        }
        var out = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw fail("unterminated escape") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5C)
                case UInt8(ascii: "/"): out.append(0x2F)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try parseHex4()
                    if (0xD800...0xDBFF).contains(scalar) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                            throw fail("unpaired surrogate escape")
                        }
                        index += 2
                        let low = try parseHex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw fail("unpaired surrogate escape") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(scalar) {
                        throw fail("unpaired surrogate escape")
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw fail("invalid \\u escape") }
                    out.append(contentsOf: Array(String(Character(unicode)).utf8))
                default:
                    throw fail("invalid escape")
                }
            case 0x00..<0x20:
                throw fail("unescaped control character in string")
            case 0x80...:
                let length = try validateUTF8Sequence()
                out.append(contentsOf: bytes[index..<(index + length)])
                index += length
            default:
                out.append(byte)
                index += 1
            }
        }
        throw fail("unterminated string")
    }

    private mutating func parseHex4() throws(Failure) -> UInt32 {
        guard index + 4 <= bytes.count else { throw fail("incomplete \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw fail("invalid \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    /// Validates one multi-byte UTF-8 sequence at `index` and returns its length.
    private func validateUTF8Sequence() throws(Failure) -> Int {
        switch UTF8Sequence.check(bytes, at: index) {
        case .valid(let length): return length
        case .truncated: throw fail("truncated UTF-8")
        case .invalid: throw fail("invalid UTF-8")
        }
    }

    /// A member name fit for an error reason: control characters replaced (reasons are one
    /// line and names come from untrusted input), at most 40 characters.
    static func shortened(_ s: String) -> String { JSONNameShortener.shorten(s) }
}
