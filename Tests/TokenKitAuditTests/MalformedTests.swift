import Testing
import TokenKit
@testable import TokenKitAudit

@Suite("Malformed tokens")
struct MalformedTests {
    static let cases: [String] = [
        "not-a-token",
        "a.b",
        "a.b.c.d.e",
        TestTokens.make(payload: #"{"exp":1700003000}"#, signature: "c2ln=") ,  // padding
        TestTokens.make(payload: #"{"exp":"tomorrow"}"#),  // wrong claim type
        TestTokens.make(payload: #"{"iat":true,"exp":1700003000}"#),
        TestTokens.make(payload: #"{"iss":42,"exp":1700003000}"#),
        TestTokens.make(payload: #"{"aud":[1,2],"exp":1700003000}"#),
        TestTokens.make(payload: #"{"aud":[],"exp":1700003000}"#),
        TestTokens.make(payload: #"{"exp":1700003000,"exp":1700003001}"#),  // duplicate member
        TestTokens.make(payload: #"[1,2,3]"#),
        TestTokens.make(payload: #"{"exp":1e400}"#),
        TestTokens.make(header: #"{"typ":"JWT"}"#, payload: #"{"exp":1700003000}"#),  // no alg
        TestTokens.make(header: #"{"alg":"HS256","kid":7}"#, payload: #"{"exp":1700003000}"#),
    ]

    @Test(arguments: cases)
    func reportedAsMalformedWithNothingElse(token: String) {
        let record = audit(token)
        #expect(record.status == .malformed)
        #expect(names(record.findings) == ["malformed"])
        #expect(record.algorithm == nil && record.keyID == nil && record.issuer == nil && record.subject == nil)
        #expect(record.audience == nil && record.issuedAt == nil && record.notBefore == nil && record.expiration == nil)
        #expect(record.lifetime == nil && record.remaining == nil)
        #expect(record.problem?.isEmpty == false)
        #expect(record.reference?.hasPrefix("sha256:") == true)
    }

    @Test func invalidUTF8LineIsMalformed() {
        let valid = Array(TestTokens.typical().utf8)
        let record = audit(bytes: [0xFF, 0xFE] + valid)
        #expect(record.status == .malformed)
        #expect(record.line == 7)
        #expect(record.source == "f")
        #expect(record.problem?.contains("non-ASCII") == true)
    }

    @Test func nonCanonicalBase64IsMalformed() {
        // "c2lnA" has length 5 (4k+1): never valid base64url.
        let record = audit(TestTokens.make(payload: #"{"exp":1700003000}"#, signature: "c2lnA"))
        #expect(record.status == .malformed)
    }

    @Test func problemNeverContainsTheToken() {
        for token in Self.cases {
            let record = audit(token)
            #expect(record.problem.map { !$0.contains(token) } ?? true)
        }
    }
}
