/// A validating, non-allocating walk over JSON text for ``JWTQuickScanner``: the grammar,
/// UTF-8, escape, surrogate, number-length and nesting rules of ``StrictJSONParser``, with
/// duplicate member detection by raw bytes (so it refuses — returns `false`/`nil` for — member
/// names with escapes or non-ASCII bytes, and objects with more than 64 members, leaving
/// them to the full parser).
struct StrictJSONScanner {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private let maxDepth: Int
    /// Member names of the objects being walked (a stack), as ranges of `bytes`.
    private(set) var names: [(start: Int, count: Int)]

    private static let maxMembers = 64

    init(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int, names: [(start: Int, count: Int)]) {
        self.bytes = bytes
        self.maxDepth = maxDepth
        self.names = names
    }

    // MARK: Top level

    /// Walks a JSON text that must be one object, calling `member` for each member with the
    /// scanner positioned at its value; `member` must consume the value. `true` when the
    /// whole text is valid and every `member` call returned `true`.
    mutating func topLevelObject(_ member: (inout StrictJSONScanner, (start: Int, count: Int)) -> Bool) -> Bool {
        skipWhitespace()
        guard peek == UInt8(ascii: "{"), maxDepth >= 1 else { return false }
        guard object(depth: 1, member: member) else { return false }
        skipWhitespace()
        return index == bytes.count
    }

    // MARK: Values the scanner returns

    /// Whether the next value is a string.
    func isString() -> Bool { peek == UInt8(ascii: "\"") }

    /// The next value when it is a string without escapes (consumed); `nil` otherwise.
    mutating func plainString() -> String? {
        guard peek == UInt8(ascii: "\""), let range = string(), !range.escaped else { return nil }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[range.start..<range.end]), as: UTF8.self)
    }

    /// The next value when it is an array of strings without escapes, nested at `depth`
    /// (the depth of the enclosing object).
    mutating func plainStringArray(depth: Int) -> [String]? {
        guard peek == UInt8(ascii: "["), depth + 1 <= maxDepth else { return nil }
        index += 1
        var list: [String] = []
        skipWhitespace()
        if peek == UInt8(ascii: "]") { index += 1; return list }
        while true {
            skipWhitespace()
            guard let element = plainString() else { return nil }
            list.append(element)
            skipWhitespace()
            switch peek {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return list
            default: return nil
            }
        }
    }

    /// The next value when it is a NumericDate: a number whose value is finite and below
    /// 1e15 in magnitude (as ``JWTClaims/numericDate(_:)`` requires).
    mutating func numericDate() -> JSONNumber? {
        guard let byte = peek, byte == UInt8(ascii: "-") || isDigit(byte), let range = number() else { return nil }
        let number = JSONNumber(checkedLiteral: String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self))
        guard number.doubleValue.isFinite, abs(number.doubleValue) < 1e15 else { return nil }
        return number
    }

    /// For header member names: 0 `alg`, 1 `kid`, 2 `typ`, 3 `cty`, 4 `crit`, else -1.
    func headerMember(_ name: (start: Int, count: Int)) -> Int {
        if name.count == 4 { return is4(name, "crit") ? 4 : -1 }
        guard name.count == 3 else { return -1 }
        if is3(name, "alg") { return 0 }
        if is3(name, "kid") { return 1 }
        if is3(name, "typ") { return 2 }
        if is3(name, "cty") { return 3 }
        return -1
    }

    /// For claim names: 0 `iss`, 1 `sub`, 2 `jti`, 3 `aud`, 4 `iat`, 5 `nbf`, 6 `exp`, else -1.
    func registeredClaim(_ name: (start: Int, count: Int)) -> Int {
        guard name.count == 3 else { return -1 }
        if is3(name, "iss") { return 0 }
        if is3(name, "sub") { return 1 }
        if is3(name, "jti") { return 2 }
        if is3(name, "aud") { return 3 }
        if is3(name, "iat") { return 4 }
        if is3(name, "nbf") { return 5 }
        if is3(name, "exp") { return 6 }
        return -1
    }

    private func is3(_ name: (start: Int, count: Int), _ text: StaticString) -> Bool {
        let p = text.utf8Start
        return bytes[name.start] == p[0] && bytes[name.start + 1] == p[1] && bytes[name.start + 2] == p[2]
    }

    private func is4(_ name: (start: Int, count: Int), _ text: StaticString) -> Bool {
        is3(name, text) && bytes[name.start + 3] == text.utf8Start[3]
    }

    /// Whether the member name's bytes equal `candidate`.
    func equals(_ name: (start: Int, count: Int), _ candidate: [UInt8]) -> Bool {
        guard name.count == candidate.count else { return false }
        for offset in 0..<name.count where bytes[name.start + offset] != candidate[offset] { return false }
        return true
    }

    // MARK: Validation

    /// Validates (and consumes) any value; `depth` is the depth of its container.
    mutating func value(depth: Int) -> Bool {
        guard let byte = peek else { return false }
        switch byte {
        case UInt8(ascii: "{"):
            guard depth + 1 <= maxDepth else { return false }
            return object(depth: depth + 1) { scanner, _ in scanner.value(depth: depth + 1) }
        case UInt8(ascii: "["): return array(depth: depth + 1)
        case UInt8(ascii: "\""): return string() != nil
        case UInt8(ascii: "t"): return literal("true")
        case UInt8(ascii: "f"): return literal("false")
        case UInt8(ascii: "n"): return literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number() != nil
        default: return false
        }
    }

    private mutating func object(depth: Int, member: (inout StrictJSONScanner, (start: Int, count: Int)) -> Bool) -> Bool {
        index += 1  // {
        let base = names.count
        defer { names.removeLast(names.count - base) }
        skipWhitespace()
        if peek == UInt8(ascii: "}") { index += 1; return true }
        while true {
            skipWhitespace()
            guard peek == UInt8(ascii: "\""), let range = string(), !range.escaped else { return false }
            let name = (start: range.start, count: range.end - range.start)
            for offset in name.start..<(name.start + name.count) where bytes[offset] >= 0x80 { return false }
            guard names.count - base < Self.maxMembers else { return false }
            for other in names[base...] where equals(name, other) { return false }
            names.append(name)
            skipWhitespace()
            guard peek == UInt8(ascii: ":") else { return false }
            index += 1
            skipWhitespace()
            guard member(&self, name) else { return false }
            skipWhitespace()
            switch peek {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return true
            default: return false
            }
        }
    }

    private func equals(_ name: (start: Int, count: Int), _ other: (start: Int, count: Int)) -> Bool {
        guard name.count == other.count else { return false }
        for offset in 0..<name.count where bytes[name.start + offset] != bytes[other.start + offset] { return false }
        return true
    }

    private mutating func array(depth: Int) -> Bool {
        guard depth <= maxDepth else { return false }
        index += 1  // [
        skipWhitespace()
        if peek == UInt8(ascii: "]") { index += 1; return true }
        while true {
            skipWhitespace()
            guard value(depth: depth) else { return false }
            skipWhitespace()
            switch peek {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return true
            default: return false
            }
        }
    }

    private mutating func literal(_ text: StaticString) -> Bool {
        let length = text.utf8CodeUnitCount
        guard index + length <= bytes.count else { return false }
        for offset in 0..<length where bytes[index + offset] != text.utf8Start[offset] { return false }
        index += length
        return true
    }

    /// Validates a number (RFC 8259 grammar, at most 64 characters); its range.
    private mutating func number() -> Range<Int>? {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard let first = peek else { return nil }
        if first == UInt8(ascii: "0") {
            index += 1
        } else if isDigit(first) {
            while let byte = peek, isDigit(byte) { index += 1 }
        } else {
            return nil
        }
        if peek == UInt8(ascii: ".") {
            index += 1
            guard let byte = peek, isDigit(byte) else { return nil }
            while let byte = peek, isDigit(byte) { index += 1 }
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            index += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { index += 1 }
            guard let byte = peek, isDigit(byte) else { return nil }
            while let byte = peek, isDigit(byte) { index += 1 }
        }
        guard index - start <= 64 else { return nil }
        return start..<index
    }

    /// Validates a string at the opening quote; the range of its raw content and whether it
    /// has escapes.
    private mutating func string() -> (start: Int, end: Int, escaped: Bool)? {
        index += 1
        let start = index
        var escaped = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                defer { index += 1 }
                return (start, index, escaped)
            }
            if byte == UInt8(ascii: "\\") {
                escaped = true
                index += 1
                guard index < bytes.count else { return nil }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                     UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    continue
                case UInt8(ascii: "u"):
                    guard let scalar = hex4() else { return nil }
                    if (0xD800...0xDBFF).contains(scalar) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                            return nil
                        }
                        index += 2
                        guard let low = hex4(), (0xDC00...0xDFFF).contains(low) else { return nil }
                    } else if (0xDC00...0xDFFF).contains(scalar) {
                        return nil
                    }
                default:
                    return nil
                }
            } else if byte < 0x20 {
                return nil
            } else if byte >= 0x80 {
                guard let length = utf8SequenceLength() else { return nil }
                index += length
            } else {
                index += 1
            }
        }
        return nil
    }

    private mutating func hex4() -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: return nil
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    /// The length of the valid multi-byte UTF-8 sequence at `index`, or `nil`.
    private func utf8SequenceLength() -> Int? {
        guard case .valid(let length) = UTF8Sequence.check(bytes, at: index) else { return nil }
        return length
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private var peek: UInt8? { index < bytes.count ? bytes[index] : nil }
    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}
