import Testing
@testable import TokenKitPrimitives

/// The one constant-time comparison (issue 23 item 8): equal exactly when the bytes are.
@Suite("Constant-time comparison")
struct ConstantTimeTests {
    @Test("equal bytes compare equal; one flipped bit anywhere, or another length, does not")
    func equality() {
        let a = (0..<64).map { UInt8($0 * 7 & 0xFF) }
        #expect(ConstantTime.equal(a, a))
        #expect(ConstantTime.equal([UInt8](), [UInt8]()))
        for index in a.indices {
            for bit in 0..<8 {
                var b = a
                b[index] ^= UInt8(1 << bit)
                #expect(!ConstantTime.equal(a, b), "byte \(index) bit \(bit)")
            }
        }
        #expect(!ConstantTime.equal(a, a.dropLast()))
        #expect(!ConstantTime.equal(a.dropLast(), a))
    }

    @Test("strings compare by their UTF-8 bytes: KELVIN SIGN is not K")
    func strings() {
        #expect(ConstantTime.equal("state-123", "state-123"))
        #expect(!ConstantTime.equal("\u{212A}", "K"))
        #expect(!ConstantTime.equal("e\u{301}", "\u{E9}"))
    }
}
