import Foundation
import Testing
@testable import TokenKit
import TokenKitTestSupport

/// One cleaner for untrusted text (issue 9, item 1.5): control characters, C1 controls and
/// bidirectional overrides from a token never reach an error reason raw.
@Suite("Untrusted text cleaner")
struct UntrustedTextTests {
    static let hostile = ["\u{202E}", "\u{2066}", "\u{200F}", "\u{0085}", "\u{009B}", "\u{2028}", "\n", "\u{1B}", "\u{7F}"]

    @Test("every unsafe scalar is replaced", arguments: hostile)
    func replaced(_ scalar: String) {
        #expect(UntrustedText.sanitized("a\(scalar)b") == "a?b")
        #expect(UntrustedText.sanitized("a\(scalar)b", replacement: " ") == "a b")
    }

    @Test("clean text is returned unchanged, including non-ASCII")
    func unchanged() {
        #expect(UntrustedText.sanitized("café \u{212A} 日本") == "café \u{212A} 日本")
        #expect(UntrustedText.sanitized(UnsafeTextSamples.printable) == UnsafeTextSamples.printable)
    }

    @Test("the class holds every sample of issue 23 item 6: C0, DEL, C1, bidi, separators, zero-width, BOM, soft hyphen, tags, ignorables",
          arguments: UnsafeTextSamples.all.map(\.name))
    func classHoldsEachSample(_ name: String) throws {
        let scalar = try #require(UnsafeTextSamples.all.first { $0.name == name }?.scalar)
        #expect(UntrustedText.isUnsafe(scalar))
        #expect(UntrustedText.sanitized("a\(scalar)b") == "a?b")
    }

    @Test("the class is exactly Cc, Cf, Zl, Zp and Default_Ignorable_Code_Point, over all of Unicode")
    func classOverAllOfUnicode() {
        var wrong: [String] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let properties = scalar.properties
            let expected: Bool
            switch properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator: expected = true
            default: expected = properties.isDefaultIgnorableCodePoint
            }
            if UntrustedText.isUnsafe(scalar) != expected { wrong.append(String(value, radix: 16)) }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(20))")
    }

    @Test("long text is cut with an ellipsis")
    func cut() {
        #expect(UntrustedText.sanitized("abcdef", maxCharacters: 4) == "abc…")
        #expect(UntrustedText.sanitized("abcd", maxCharacters: 4) == "abcd")
    }

    @Test("a bidi override in a token's iss never reaches the error reason", arguments: hostile)
    func errorReason(_ scalar: String) throws {
        var options = ValidationOptions(requiredClaims: [], clock: FixedClock(unixTime: TokenForge.now))
        options.issuers = ["good"]
        let token = TokenForge.token(payload: #"{"iss":"x\#(scalar.unicodeScalars.map { String(format: "\\u%04X", $0.value) }.joined())y"}"#)
        let error = expectJWTError(.issuerMismatch) { try TokenForge.verifier(options).verify(token) }
        #expect(error?.reason.unicodeScalars.contains(where: UntrustedText.isUnsafe) == false, "\(error?.reason.debugDescription ?? "")")
    }
}
