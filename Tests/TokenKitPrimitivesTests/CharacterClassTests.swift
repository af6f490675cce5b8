import Testing
@testable import TokenKitPrimitives

/// The ASCII classes of the OAuth and JOSE grammars, against their definitions written out
/// as sets of characters (RFC 4648 §5, RFC 6750 §2.1, RFC 6749 Appendix A).
@Suite("Character classes")
struct CharacterClassTests {
    static func set(_ ranges: [ClosedRange<UInt8>], _ singles: String = "") -> Set<UInt8> {
        Set(ranges.flatMap { Array($0) }).union(singles.utf8)
    }

    static let base64URL = set([0x41...0x5A, 0x61...0x7A, 0x30...0x39], "-_")

    @Test("each class holds exactly its grammar's characters, over every byte")
    func everyByte() {
        let b64token = Self.base64URL.union(".~+/".utf8)
        let vschar = Self.set([0x20...0x7E])
        let nqchar = vschar.subtracting(" \"\\".utf8)
        let nqschar = nqchar.union([0x20])
        for byte in UInt8.min...UInt8.max {
            #expect(CharacterClass.isBase64URL(byte) == Self.base64URL.contains(byte), "base64url \(byte)")
            #expect(CharacterClass.isB64Token(byte) == b64token.contains(byte), "b64token \(byte)")
            #expect(CharacterClass.isVSCHAR(byte) == vschar.contains(byte), "VSCHAR \(byte)")
            #expect(CharacterClass.isNQCHAR(byte) == nqchar.contains(byte), "NQCHAR \(byte)")
            #expect(CharacterClass.isNQSCHAR(byte) == nqschar.contains(byte), "NQSCHAR \(byte)")
        }
    }

    @Test("no scalar beyond ASCII is in any class")
    func beyondASCII() {
        for value: UInt32 in [0x80, 0xFF, 0x100, 0x212A, 0xFF21, 0x10FFFF] {
            #expect(!CharacterClass.isVSCHAR(value) && !CharacterClass.isNQSCHAR(value) && !CharacterClass.isB64Token(value))
        }
    }
}
