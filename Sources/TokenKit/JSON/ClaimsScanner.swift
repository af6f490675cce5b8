/// A fast, allocation-free validating scan of a JWT payload (or header) for the common case:
/// an object whose strings are printable ASCII without escapes and whose objects have at most
/// 32 members.
///
/// It accepts a strict subset of what ``StrictJSONParser`` accepts (same grammar, same
/// duplicate-name rule, same depth and number-length limits), and declines (returns `false`)
/// for everything else — including every invalid input. A caller that gets `false` must run
/// the full parser, which either accepts the input or names the problem; so the fast path
/// never changes what is accepted nor the error reported.
///
/// While scanning, it records where the top-level registered claims the validator reads
/// (`iss`, `sub`, `aud`, `exp`, `nbf`, `iat`) and every top-level member name are.
struct ClaimsScanner {
    /// The JSON type of a scanned value.
    enum Kind: UInt8 { case absent = 0, string, number, object, array, literal }

    /// A top-level value the validator needs: its kind and its bytes (for a string, without
    /// the quotes; no escapes by construction).
    struct Value {
        var kind: Kind = .absent
        var start = 0
        var end = 0
    }

    static let maxMembers = 32

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private let maxDepth: Int

    var iss = Value(), sub = Value(), aud = Value(), exp = Value(), nbf = Value(), iat = Value()
    /// Top-level member names: start and end offsets, `nameCount` pairs.
    private var topNames: UnsafeMutablePointer<Int>
    private(set) var nameCount = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int, topNames: UnsafeMutablePointer<Int>) {
        self.bytes = bytes
        self.maxDepth = maxDepth
        self.topNames = topNames
    }

    /// Scans `bytes`, which must hold one JSON object; calls `body` with the scan when the
    /// fast path accepts it, and returns `nil` without calling it when it declines.
    static func scan<R>(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int, _ body: (ClaimsScanner) -> R) -> R? {
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * maxMembers) { names in
            var scanner = ClaimsScanner(bytes, maxDepth: maxDepth, topNames: names.baseAddress!)
            guard scanner.scanDocument() else { return nil }
            return body(scanner)
        }
    }

    /// Whether the top-level object has a member named `name`.
    func hasMember(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { wanted in
            for i in 0..<nameCount where equal(topNames[2 * i], topNames[2 * i + 1], wanted) { return true }
            return false
        }
    }

    /// Whether the bytes `start..<end` equal `wanted`.
    func equal(_ start: Int, _ end: Int, _ wanted: UnsafeBufferPointer<UInt8>) -> Bool {
        guard end - start == wanted.count else { return false }
        return memcmpEqual(bytes.baseAddress! + start, wanted.baseAddress, wanted.count)
    }

    /// Whether a string value equals `string`.
    func stringEquals(_ value: Value, _ string: String) -> Bool {
        guard value.kind == .string else { return false }
        var string = string
        return string.withUTF8 { equal(value.start, value.end, $0) }
    }

    /// The number's value, as the full parser computes it (`Double(literal)`).
    func number(_ value: Value) -> Double {
        var i = value.start
        var negative = false
        if bytes[i] == UInt8(ascii: "-") { negative = true; i += 1 }
        if value.end - i <= 15 {
            var n: Int64 = 0
            var plain = true
            for j in i..<value.end {
                let d = bytes[j] &- UInt8(ascii: "0")
                if d > 9 { plain = false; break }
                n = n * 10 + Int64(d)
            }
            // Integers below 2^53 convert exactly, as Double(String) does.
            if plain { return negative ? -Double(n) : Double(n) }
        }
        return Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[value.start..<value.end]), as: UTF8.self)) ?? .nan
    }

    /// Calls `body` with each element of an array value that is a string (start, end);
    /// returns `false` if an element is not a string.
    func forEachString(inArray value: Value, _ body: (Int, Int) -> Void) -> Bool {
        guard value.kind == .array else { return false }
        var i = value.start + 1
        while i < value.end {
            switch bytes[i] {
            case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ","): i += 1
            case UInt8(ascii: "]"): return true
            case UInt8(ascii: "\""):
                let start = i + 1
                var j = start
                while bytes[j] != UInt8(ascii: "\"") { j += 1 }  // no escapes: the scan declined them
                body(start, j)
                i = j + 1
            default: return false
            }
        }
        return true
    }

    // MARK: - Scanning (mirrors StrictJSONParser; `false` means "decline")

    private mutating func scanDocument() -> Bool {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return false }
        guard scanObject(depth: 1, top: true) else { return false }
        skipWhitespace()
        return index == bytes.count
    }

    @inline(__always) private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func scanValue(depth: Int) -> Kind? {
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "{"): return scanObject(depth: depth + 1, top: false) ? .object : nil
        case UInt8(ascii: "["): return scanArray(depth: depth + 1) ? .array : nil
        case UInt8(ascii: "\""): return scanString() ? .string : nil
        case UInt8(ascii: "t"): return literal("true") ? .literal : nil
        case UInt8(ascii: "f"): return literal("false") ? .literal : nil
        case UInt8(ascii: "n"): return literal("null") ? .literal : nil
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return scanNumber() ? .number : nil
        default: return nil
        }
    }

    private mutating func literal(_ literal: StaticString) -> Bool {
        let length = literal.utf8CodeUnitCount
        guard index + length <= bytes.count, memcmpEqual(bytes.baseAddress! + index, literal.utf8Start, length) else { return false }
        index += length
        return true
    }

    /// A string of printable ASCII without escapes; the index ends after the closing quote.
    private mutating func scanString() -> Bool {
        index += 1
        // Eight bytes at a time: the lowest flagged byte of a word is exactly the first quote,
        // backslash, control or non-ASCII byte (the bit tests can only over-flag bytes above
        // a flagged one), so the string ends there if it is a quote and is declined otherwise.
        #if _endian(little)
        let base = UnsafeRawPointer(bytes.baseAddress!)
        while index + 8 <= bytes.count {
            let w = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            let high: UInt64 = 0x8080_8080_8080_8080, ones: UInt64 = 0x0101_0101_0101_0101
            let quote = w ^ (0x22 &* ones), backslash = w ^ (0x5C &* ones)
            let flagged = (w | ((w &- 0x20 &* ones) & ~w) | ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)) & high
            if flagged != 0 {
                index += flagged.trailingZeroBitCount >> 3
                guard bytes[index] == UInt8(ascii: "\"") else { return false }
                index += 1
                return true
            }
            index += 8
        }
        #endif
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") { index += 1; return true }
            if byte == UInt8(ascii: "\\") || byte >= 0x80 || byte < 0x20 { return false }
            index += 1
        }
        return false
    }

    private mutating func scanNumber() -> Bool {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count else { return false }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else if isDigit(bytes[index]) {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        } else {
            return false
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { return false }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { return false }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        return index - start <= 64
    }

    @inline(__always) private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private mutating func scanArray(depth: Int) -> Bool {
        guard depth <= maxDepth else { return false }
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return true }
        while true {
            skipWhitespace()
            guard scanValue(depth: depth) != nil else { return false }
            skipWhitespace()
            guard index < bytes.count else { return false }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return true }
            return false
        }
    }

    private mutating func scanObject(depth: Int, top: Bool) -> Bool {
        guard depth <= maxDepth else { return false }
        if top { return scanObjectMembers(depth: depth, names: topNames, top: true) }
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * Self.maxMembers) { names in
            scanObjectMembers(depth: depth, names: names.baseAddress!, top: false)
        }
    }

    private mutating func scanObjectMembers(depth: Int, names: UnsafeMutablePointer<Int>, top: Bool) -> Bool {
        index += 1  // {
        var count = 0
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return true }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return false }
            let nameStart = index + 1
            guard scanString() else { return false }
            let nameEnd = index - 1
            // Duplicate names (no escapes, so the bytes are the names).
            let length = nameEnd - nameStart
            for i in 0..<count where names[2 * i + 1] - names[2 * i] == length
                && memcmpEqual(bytes.baseAddress! + names[2 * i], bytes.baseAddress! + nameStart, length) {
                return false
            }
            guard count < Self.maxMembers else { return false }
            names[2 * count] = nameStart
            names[2 * count + 1] = nameEnd
            count += 1
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return false }
            index += 1
            skipWhitespace()
            let valueStart = index
            guard let kind = scanValue(depth: depth) else { return false }
            if top, length == 3 { record(nameStart, kind, valueStart, index) }
            skipWhitespace()
            guard index < bytes.count else { return false }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                if top { nameCount = count }
                return true
            }
            return false
        }
    }

    /// Remembers a top-level registered claim (all six names have three letters).
    private mutating func record(_ nameStart: Int, _ kind: Kind, _ start: Int, _ end: Int) {
        let a = bytes[nameStart], b = bytes[nameStart + 1], c = bytes[nameStart + 2]
        var value = Value(kind: kind, start: start, end: end)
        if kind == .string { value.start += 1; value.end -= 1 }
        switch (a, b, c) {
        case (UInt8(ascii: "i"), UInt8(ascii: "s"), UInt8(ascii: "s")): iss = value
        case (UInt8(ascii: "s"), UInt8(ascii: "u"), UInt8(ascii: "b")): sub = value
        case (UInt8(ascii: "a"), UInt8(ascii: "u"), UInt8(ascii: "d")): aud = value
        case (UInt8(ascii: "e"), UInt8(ascii: "x"), UInt8(ascii: "p")): exp = value
        case (UInt8(ascii: "n"), UInt8(ascii: "b"), UInt8(ascii: "f")): nbf = value
        case (UInt8(ascii: "i"), UInt8(ascii: "a"), UInt8(ascii: "t")): iat = value
        default: break
        }
    }
}

@inline(__always)
func memcmpEqual(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer?, _ count: Int) -> Bool {
    guard count > 0 else { return true }
    guard let b else { return false }
    var i = 0
    while i < count {
        if a.load(fromByteOffset: i, as: UInt8.self) != b.load(fromByteOffset: i, as: UInt8.self) { return false }
        i += 1
    }
    return true
}
