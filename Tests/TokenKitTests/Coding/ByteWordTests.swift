import Testing
@testable import TokenKit

@Suite("ByteWord: eight-byte tests find exactly the first match")
struct ByteWordTests {
    /// A little-endian word of `bytes` (eight of them).
    static func word(_ bytes: [UInt8]) -> UInt64 {
        bytes.enumerated().reduce(0) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
    }

    /// Every byte value at every position, after plain bytes and before bytes that would match
    /// too: the first flagged byte is the first byte the plain rule matches.
    @Test("below, equal and non-ASCII flag the first matching byte for every byte value and position")
    func firstMatchEverywhere() {
        let rules: [(String, (UInt8) -> Bool, (UInt64) -> UInt64)] = [
            ("below 0x20", { $0 < 0x20 }, { ByteWord.below(0x20, in: $0) }),
            ("below 0x80", { $0 < 0x80 }, { ByteWord.below(0x80, in: $0) }),
            ("equal 0x22", { $0 == 0x22 }, { ByteWord.equal(to: 0x22, in: $0) }),
            ("equal 0x00", { $0 == 0x00 }, { ByteWord.equal(to: 0x00, in: $0) }),
            ("equal 0xFF", { $0 == 0xFF }, { ByteWord.equal(to: 0xFF, in: $0) }),
            ("non-ASCII", { $0 >= 0x80 }, { ByteWord.nonASCII($0) }),
        ]
        for (name, matches, test) in rules {
            // Filler that matches none of the rules' bytes above: 'a' for most, 0x90 for
            // "below 0x80" (which 'a' matches).
            let plain: UInt8 = name == "below 0x80" ? 0x90 : 0x61
            for position in 0..<8 {
                for value in 0...255 {
                    let byte = UInt8(value)
                    // Bytes after `position` are the worst case for borrows: all zero or all 0xFF.
                    for tail: UInt8 in [0x00, 0xFF, plain] {
                        var bytes = [UInt8](repeating: plain, count: 8)
                        bytes[position] = byte
                        for later in (position + 1)..<8 { bytes[later] = tail }
                        let expected = bytes.firstIndex(where: matches)
                        #expect(ByteWord.firstFlagged(test(Self.word(bytes))) == expected,
                                "\(name): 0x\(String(byte, radix: 16)) at \(position), tail 0x\(String(tail, radix: 16))")
                    }
                }
            }
        }
    }

    @Test("skip stops at the first flagged byte, or where fewer than eight bytes remain")
    func skipStopsAtFirstMatchOrTail() {
        for length in 0...24 {
            for start in [0, 3] where start <= length {
                for position in [nil] + Array(0..<length) {
                    var bytes = [UInt8](repeating: 0x61, count: length)
                    if let position { bytes[position] = 0x22 }
                    let stop = bytes.withUnsafeBufferPointer { buffer in
                        ByteWord.skip(buffer, from: start) { ByteWord.equal(to: 0x22, in: $0) }
                    }
                    // Whole words from `start`: the match if it lies in one, else the tail.
                    let wholeWordsEnd = start + (length - start) / 8 * 8
                    let expected = position.map { $0 >= start && $0 < wholeWordsEnd ? $0 : nil } ?? nil
                    #expect(stop == (expected ?? wholeWordsEnd), "length \(length), start \(start), quote at \(String(describing: position))")
                }
            }
        }
    }
}
