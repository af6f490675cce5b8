/// Tests on eight bytes at a time, read as one little-endian `UInt64`: what the JSON lexer
/// and the JSON string escaper use to skip runs of plain bytes.
///
/// Each test sets the top bit of every byte it matches. It may also set it in bytes *above*
/// a matching byte (a borrow moves upward), never in a byte below one, so the lowest flagged
/// byte of a word is exactly the first match: read a result only through
/// ``firstFlagged(_:)``.
enum ByteWord {
    private static var ones: UInt64 { 0x0101_0101_0101_0101 }
    private static var high: UInt64 { 0x8080_8080_8080_8080 }

    /// Flags the bytes below `limit` (`limit` at most 0x80).
    @inline(__always)
    static func below(_ limit: UInt8, in word: UInt64) -> UInt64 {
        (word &- UInt64(limit) &* ones) & ~word & high
    }

    /// Flags the bytes equal to `byte`.
    @inline(__always)
    static func equal(to byte: UInt8, in word: UInt64) -> UInt64 {
        let difference = word ^ (UInt64(byte) &* ones)
        return (difference &- ones) & ~difference & high
    }

    /// Flags the bytes 0x80 and above (UTF-8 lead and continuation bytes).
    @inline(__always)
    static func nonASCII(_ word: UInt64) -> UInt64 { word & high }

    /// The offset in the word of the first match, or `nil` when no byte is flagged.
    @inline(__always)
    static func firstFlagged(_ flags: UInt64) -> Int? {
        flags == 0 ? nil : flags.trailingZeroBitCount >> 3
    }

    /// Reads `bytes` from `start` eight at a time and returns the index of the first byte that
    /// `flags` (a combination of the tests above) flags, or the index where fewer than eight
    /// bytes remain: the caller reads on from there one byte at a time.
    @inline(__always)
    static func skip(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, unlessFlagged flags: (UInt64) -> UInt64) -> Int {
        var index = start
        #if _endian(little)
        guard let base = bytes.baseAddress else { return index }
        let raw = UnsafeRawPointer(base)
        while index + 8 <= bytes.count {
            if let offset = firstFlagged(flags(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))) { return index + offset }
            index += 8
        }
        #endif
        return index
    }
}
