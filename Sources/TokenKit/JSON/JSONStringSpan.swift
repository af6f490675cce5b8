internal import TokenKitPrimitives

/// A JSON string as it appears in the input (between its quotes), already validated by
/// ``JSONLexer``: its escapes are well-formed and its UTF-8 is valid, so decoding it cannot
/// fail. Valid only while the input it points into is.
///
/// Comparisons are of the decoded text's UTF-8 bytes (RFC 7519 §7.2 / RFC 8259 §8.3: no
/// Unicode normalisation), so `"K"` and `"\u004B"` are the same name and `"K"` (U+212A
/// KELVIN SIGN) is not.
struct JSONStringSpan {
    /// The bytes between the quotes.
    let raw: UnsafeBufferPointer<UInt8>
    /// Whether `raw` has at least one backslash escape.
    let hasEscapes: Bool

    /// The decoded text.
    var decoded: String {
        guard hasEscapes else { return String(decoding: raw, as: UTF8.self) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(raw.count)
        var iterator = makeDecodedIterator()
        while let byte = iterator.next() { bytes.append(byte) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether the decoded text's UTF-8 equals `utf8`.
    @inline(__always)
    func equals(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        if !hasEscapes {
            guard raw.count == utf8.count, let mine = raw.baseAddress else { return raw.count == utf8.count }
            return bytesEqual(mine, utf8.baseAddress, count: raw.count)
        }
        var iterator = makeDecodedIterator()
        for byte in utf8 where iterator.next() != byte { return false }
        return iterator.next() == nil
    }

    /// Whether the decoded text's UTF-8 equals `string`'s.
    func equals(_ string: String) -> Bool {
        if let result = string.utf8.withContiguousStorageIfAvailable({ equals($0) }) { return result }
        return Array(string.utf8).withUnsafeBufferPointer { equals($0) }
    }

    /// Whether both decode to the same bytes.
    @inline(__always)
    func isSameName(as other: JSONStringSpan) -> Bool {
        if !hasEscapes { return other.equals(raw) }
        if !other.hasEscapes { return equals(other.raw) }
        var mine = makeDecodedIterator(), theirs = other.makeDecodedIterator()
        while true {
            let byte = mine.next()
            guard byte == theirs.next() else { return false }
            if byte == nil { return true }
        }
    }

    /// The decoded text's UTF-8 bytes, one at a time.
    func makeDecodedIterator() -> DecodedBytes { DecodedBytes(raw: raw) }

    /// The value of a hexadecimal digit, or `nil`.
    @inline(__always)
    static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// Decodes escapes on the fly (the lexer validated them, so there is nothing to refuse).
    struct DecodedBytes: IteratorProtocol {
        private let raw: UnsafeBufferPointer<UInt8>
        private var index = 0
        /// Up to three more bytes of a multi-byte scalar from a `\u` escape, lowest first.
        private var pending: UInt32 = 0
        private var pendingCount = 0

        init(raw: UnsafeBufferPointer<UInt8>) { self.raw = raw }

        mutating func next() -> UInt8? {
            if pendingCount > 0 {
                let byte = UInt8(truncatingIfNeeded: pending)
                pending >>= 8
                pendingCount -= 1
                return byte
            }
            guard index < raw.count else { return nil }
            let byte = raw[index]
            index += 1
            guard byte == UInt8(ascii: "\\"), index < raw.count else { return byte }
            let letter = raw[index]
            index += 1
            switch letter {
            case UInt8(ascii: "b"): return 0x08
            case UInt8(ascii: "f"): return 0x0C
            case UInt8(ascii: "n"): return 0x0A
            case UInt8(ascii: "r"): return 0x0D
            case UInt8(ascii: "t"): return 0x09
            case UInt8(ascii: "u"): return scalarBytes()
            default: return letter  // \" \\ \/
            }
        }

        private mutating func hex4() -> UInt32 {
            var value: UInt32 = 0
            for _ in 0..<4 where index < raw.count {
                value = value << 4 | (JSONStringSpan.hexDigit(raw[index]) ?? 0)
                index += 1
            }
            return value
        }

        /// The first UTF-8 byte of the scalar of a `\u` escape (and of its low surrogate's
        /// escape, when it is a high surrogate); the rest are queued.
        private mutating func scalarBytes() -> UInt8 {
            var scalar = hex4()
            if (0xD800...0xDBFF).contains(scalar), index + 6 <= raw.count {
                index += 2  // \u
                scalar = 0x10000 &+ ((scalar &- 0xD800) << 10) &+ (hex4() &- 0xDC00)
            }
            let value = Unicode.Scalar(scalar) ?? "\u{FFFD}"  // the lexer refused unpaired surrogates
            var first: UInt8 = 0
            var position = 0
            for byte in value.utf8 {
                if position == 0 { first = byte } else { pending |= UInt32(byte) << (8 * UInt32(position - 1)) }
                position += 1
            }
            pendingCount = position - 1
            return first
        }
    }
}
