import Foundation
import Testing
@testable import TokenKit

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
