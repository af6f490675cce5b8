/// Why a JSON text was refused: one line, with a byte offset; never echoes the input
/// (member names in reasons are shortened and cleaned, see ``JSONNameShortener``).
struct JSONSyntaxError: Error, Sendable {
    /// What is wrong and where.
    let reason: String
}

/// What ``JSONLexer`` reports while it reads a valid JSON text, in document order.
///
/// A consumer sees only well-formed structure: every event the lexer sends belongs to a
/// text that is valid so far, but the text as a whole may still be refused later (a
/// consumer must discard what it built when ``JSONLexer/read(_:maxDepth:requireObject:into:)``
/// throws). String spans and number ranges point into the input and are valid only during
/// the read.
protocol JSONEvents {
    /// `{` (the object's members follow, each a ``memberName(_:)`` and then its value).
    mutating func objectStart()
    /// A member's name; its value's events follow.
    mutating func memberName(_ name: JSONStringSpan)
    /// `}`.
    mutating func objectEnd()
    /// `[`, at `offset` in the input.
    mutating func arrayStart(at offset: Int)
    /// `]`, whose array's text ends (exclusive) at `offset`.
    mutating func arrayEnd(endingAt offset: Int)
    /// A string value.
    mutating func string(_ value: JSONStringSpan)
    /// A number value: the literal is `input[start..<end]`, already checked against the
    /// grammar.
    mutating func number(_ input: UnsafeBufferPointer<UInt8>, start: Int, end: Int)
    /// `true`, `false` or `null`.
    mutating func literal(_ value: JSONLiteral)
}

/// The three JSON literals.
enum JSONLiteral {
    case `true`, `false`, null
}

/// The package's one JSON grammar: a validating reader of RFC 8259 text that both the
/// `JSONValue` builder (``StrictJSONParser``) and the allocation-free registered-claims view
/// (``RegisteredClaimsView``) are fed from, so they accept exactly the same inputs.
///
/// Rules, all enforced here and nowhere else: valid UTF-8 only (RFC 3629: no overlong forms,
/// no surrogates), no unescaped control characters, only the escapes of RFC 8259 §7 with
/// `\u` surrogates paired, numbers in the RFC 8259 §6 grammar, no duplicate member names
/// in an object (compared after unescaping, byte for byte), no content after the value,
/// and the limits below. Every refusal names its reason and byte offset.
///
/// Limits (beyond the caller's nesting depth): at most ``maxMembers`` members per object,
/// ``maxStringBytes`` bytes per string as written, ``maxNumberCharacters`` characters per
/// number. Reading does not allocate unless the objects open at one time hold more than 32
/// member names together.
struct JSONLexer<Events: JSONEvents> {
    /// Most members one object may have.
    static var maxMembers: Int { 1_000 }
    /// Longest string, in bytes as written between its quotes.
    static var maxStringBytes: Int { 65_536 }
    /// Longest number literal, in characters.
    static var maxNumberCharacters: Int { 64 }

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private let maxDepth: Int
    private var names: MemberNameStack
    /// The caller's event consumer, written in place (a view can be a few hundred bytes:
    /// holding a copy would mean copying it in and out on every read).
    private let events: UnsafeMutablePointer<Events>
    /// The type of the top-level value (for ``read(_:maxDepth:requireObject:into:)``).
    private var topKind = JSONKind.absent

    private init(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int, names: MemberNameStack, events: UnsafeMutablePointer<Events>) {
        self.bytes = bytes
        self.maxDepth = maxDepth
        self.names = names
        self.events = events
    }

    /// Reads one JSON text (any value; an object when `requireObject`) from `input`,
    /// sending its events to `events`. Throws the first problem found.
    static func read(_ input: UnsafeBufferPointer<UInt8>, maxDepth: Int, requireObject: Bool,
                     into events: inout Events) throws(JSONSyntaxError) {
        // Offsets are kept in 32 bits; a JWT is nowhere near (``ParsingLimits``), and no JSON
        // document TokenKit reads is either.
        guard input.count < Int(UInt32.max) else { throw JSONSyntaxError(reason: "JSON text of \(input.count) bytes is too large") }
        var failure: JSONSyntaxError?
        withUnsafeTemporaryAllocation(of: MemberName.self, capacity: 32) { inline in  // 384 bytes: on the stack (no heap allocation per read)
            withUnsafeMutablePointer(to: &events) { sink in
                var lexer = JSONLexer(input, maxDepth: maxDepth, names: MemberNameStack(inline: inline), events: sink)
                do throws(JSONSyntaxError) {
                    try lexer.readDocument(requireObject: requireObject)
                } catch {
                    failure = error
                }
            }
        }
        if let failure { throw failure }
    }

    private mutating func readDocument(requireObject: Bool) throws(JSONSyntaxError) {
        skipWhitespace()
        try value(depth: 0)
        skipWhitespace()
        guard index == bytes.count else { throw fail("unexpected content after the JSON value") }
        if requireObject, topKind != .object { throw JSONSyntaxError(reason: "expected a JSON object, found \(topKind.typeName)") }
    }

    private func fail(_ reason: String) -> JSONSyntaxError { JSONSyntaxError(reason: "\(reason) at offset \(index)") }

    @inline(__always) private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    /// Reads one value; `depth` is the nesting depth of its container (0 at the top).
    private mutating func value(depth: Int) throws(JSONSyntaxError) {
        guard index < bytes.count else { throw fail("unexpected end of JSON") }
        let kind: JSONKind
        switch bytes[index] {
        case UInt8(ascii: "{"): try object(depth: depth + 1); kind = .object
        case UInt8(ascii: "["): try array(depth: depth + 1); kind = .array
        case UInt8(ascii: "\""): events.pointee.string(try string()); kind = .string
        case UInt8(ascii: "t"): try literal("true"); events.pointee.literal(.true); kind = .boolean
        case UInt8(ascii: "f"): try literal("false"); events.pointee.literal(.false); kind = .boolean
        case UInt8(ascii: "n"): try literal("null"); events.pointee.literal(.null); kind = .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let start = index
            try number()
            events.pointee.number(bytes, start: start, end: index)
            kind = .number
        default: throw fail("unexpected character")
        }
        if depth == 0 { topKind = kind }
    }

    private mutating func literal(_ literal: StaticString) throws(JSONSyntaxError) {
        let length = literal.utf8CodeUnitCount
        guard index + length <= bytes.count else { throw fail("unexpected end of JSON") }
        let expected = literal.utf8Start
        for offset in 0..<length where bytes[index + offset] != expected[offset] { throw fail("invalid literal") }
        index += length
    }

    private mutating func object(depth: Int) throws(JSONSyntaxError) {
        guard depth <= maxDepth else { throw fail("JSON nesting deeper than \(maxDepth)") }
        index += 1  // {
        events.pointee.objectStart()
        let base = names.count
        defer { names.pop(to: base) }
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            events.pointee.objectEnd()
            return
        }
        // Names seen so far in this object, as a 64-bit filter: equal names without escapes
        // have the same bit, so a name whose bit is clear (and no escaped name so far) cannot
        // be a duplicate and is not compared with the earlier ones.
        var seenFilter: UInt64 = 0
        var sawEscapedName = false
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail("expected a member name") }
            guard names.count - base < Self.maxMembers else { throw fail("object with more than \(Self.maxMembers) members") }
            let nameOffset = index
            let name = try string()
            events.pointee.memberName(name)
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail("expected ':'") }
            index += 1
            skipWhitespace()
            try value(depth: depth)
            // Checked after the value, so a text with two problems reports the earlier one.
            let member = MemberName(name, in: bytes)
            let bit = name.hasEscapes ? 0 : Self.filterBit(of: name.raw)
            if name.hasEscapes || sawEscapedName || seenFilter & bit != 0 {
                for earlier in base..<names.count where names[earlier].mayBeSame(as: name) && names[earlier].span(in: bytes).isSameName(as: name) {
                    throw JSONSyntaxError(reason: "duplicate member name \"\(JSONNameShortener.shorten(name.decoded))\" at offset \(nameOffset)")
                }
            }
            seenFilter |= bit
            sawEscapedName = sawEscapedName || name.hasEscapes
            names.push(member)
            skipWhitespace()
            guard index < bytes.count else { throw fail("unexpected end of JSON") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                events.pointee.objectEnd()
                return
            }
            throw fail("expected ',' or '}'")
        }
    }

    /// The duplicate filter's bit for a name written without escapes: a function of its
    /// length and first and last bytes, so equal names always share it.
    @inline(__always)
    private static func filterBit(of raw: UnsafeBufferPointer<UInt8>) -> UInt64 {
        guard let first = raw.first, let last = raw.last else { return 1 }
        let mixed = UInt64(truncatingIfNeeded: raw.count) &* 0x9E37_79B9 ^ UInt64(first) &* 0x85EB_CA6B ^ UInt64(last) &* 0xC2B2_AE35
        return 1 << ((mixed ^ (mixed >> 29)) & 63)
    }

    private mutating func array(depth: Int) throws(JSONSyntaxError) {
        guard depth <= maxDepth else { throw fail("JSON nesting deeper than \(maxDepth)") }
        events.pointee.arrayStart(at: index)
        index += 1  // [
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            events.pointee.arrayEnd(endingAt: index)
            return
        }
        while true {
            skipWhitespace()
            try value(depth: depth)
            skipWhitespace()
            guard index < bytes.count else { throw fail("unexpected end of JSON") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") {
                index += 1
                events.pointee.arrayEnd(endingAt: index)
                return
            }
            throw fail("expected ',' or ']'")
        }
    }

    private mutating func number() throws(JSONSyntaxError) {
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
        guard index - start <= Self.maxNumberCharacters else {
            throw JSONSyntaxError(reason: "number longer than \(Self.maxNumberCharacters) characters at offset \(start)")
        }
    }

    @inline(__always) private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    /// Reads a string (the index is at its opening quote) and returns its span; the index
    /// ends after the closing quote.
    private mutating func string() throws(JSONSyntaxError) -> JSONStringSpan {
        let quote = index
        index += 1
        let start = index
        var escaped = false
        // Eight bytes at a time while the text is plain: up to the first quote, backslash,
        // control or non-ASCII byte.
        index = ByteWord.skip(bytes, from: index) { w in
            ByteWord.nonASCII(w) | ByteWord.below(0x20, in: w)
                | ByteWord.equal(to: UInt8(ascii: "\""), in: w) | ByteWord.equal(to: UInt8(ascii: "\\"), in: w)
        }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                guard index - start <= Self.maxStringBytes else {
                    throw JSONSyntaxError(reason: "string longer than \(Self.maxStringBytes) bytes at offset \(quote)")
                }
                let span = JSONStringSpan(raw: UnsafeBufferPointer(rebasing: bytes[start..<index]), hasEscapes: escaped)
                index += 1
                return span
            case UInt8(ascii: "\\"):
                escaped = true
                index += 1
                try escape()
            case 0x00..<0x20:
                throw fail("unescaped control character in string")
            case 0x80...:
                switch UTF8Sequence.check(bytes, at: index) {
                case .valid(let length): index += length
                case .truncated: throw fail("truncated UTF-8")
                case .invalid: throw fail("invalid UTF-8")
                }
            default:
                index += 1
            }
        }
        throw fail("unterminated string")
    }

    /// Checks one escape (the index is after its backslash) and moves past it.
    private mutating func escape() throws(JSONSyntaxError) {
        guard index < bytes.count else { throw fail("unterminated escape") }
        let letter = bytes[index]
        index += 1
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
             UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return
        case UInt8(ascii: "u"):
            let scalar = try hex4()
            if (0xD800...0xDBFF).contains(scalar) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                    throw fail("unpaired surrogate escape")
                }
                index += 2
                let low = try hex4()
                guard (0xDC00...0xDFFF).contains(low) else { throw fail("unpaired surrogate escape") }
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw fail("unpaired surrogate escape")
            }
        default:
            throw fail("invalid escape")
        }
    }

    private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw fail("incomplete \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = JSONStringSpan.hexDigit(bytes[index]) else { throw fail("invalid \\u escape") }
            value = value << 4 | digit
            index += 1
        }
        return value
    }
}

/// A member name the lexer remembers while its object is open (for the duplicate rule), in
/// 12 bytes: where its text is in the input (offsets fit: see ``RegisteredClaimsView``).
struct MemberName {
    private let start: UInt32
    private let end: UInt32
    private let hasEscapes: Bool

    init(_ span: JSONStringSpan, in input: UnsafeBufferPointer<UInt8>) {
        let offset = input.baseAddress.flatMap { base in span.raw.baseAddress.map { $0 - base } } ?? 0
        start = UInt32(truncatingIfNeeded: offset)
        end = UInt32(truncatingIfNeeded: offset + span.raw.count)
        hasEscapes = span.hasEscapes
    }

    /// `false` when the names certainly differ: both without escapes and of different lengths.
    @inline(__always)
    func mayBeSame(as other: JSONStringSpan) -> Bool {
        hasEscapes || other.hasEscapes || Int(end &- start) == other.raw.count
    }

    /// The name's text in `input` (the buffer it was made from).
    func span(in input: UnsafeBufferPointer<UInt8>) -> JSONStringSpan {
        JSONStringSpan(raw: UnsafeBufferPointer(rebasing: input[Int(start)..<Int(end)]), hasEscapes: hasEscapes)
    }
}

/// The names of the members of every object being read, innermost last: as many as the
/// caller's temporary buffer holds (32 for ``JSONLexer``), then on the heap.
struct MemberNameStack {
    private let inline: UnsafeMutableBufferPointer<MemberName>
    private var overflow: [MemberName] = []
    private(set) var count = 0

    init(inline: UnsafeMutableBufferPointer<MemberName>) { self.inline = inline }

    @inline(__always)
    subscript(position: Int) -> MemberName {
        position < inline.count ? inline[position] : overflow[position - inline.count]
    }

    @inline(__always)
    mutating func push(_ name: MemberName) {
        if count < inline.count {
            inline.initializeElement(at: count, to: name)
        } else {
            overflow.append(name)
        }
        count += 1
    }

    /// Forgets every name above `depth` (MemberName is a trivial type: nothing to deinitialise).
    mutating func pop(to newCount: Int) {
        guard newCount < count else { return }
        if count <= inline.count {
            // Nothing on the heap: the common case, with no array call at all.
        } else if newCount <= inline.count {
            overflow.removeAll(keepingCapacity: true)
        } else {
            overflow.removeLast(count - newCount)
        }
        count = newCount
    }
}
