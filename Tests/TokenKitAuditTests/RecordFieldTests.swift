import Testing
import TokenKit
@testable import TokenKitAudit

@Suite("Record fields")
struct RecordFieldTests {
    @Test func numbersKeepTheirLiterals() {
        let record = audit(TestTokens.claims(#""iat":1.6999994e9,"nbf":1699999400.0,"exp":1700003000.5"#))
        #expect(record.issuedAt?.literal == "1.6999994e9")
        #expect(record.notBefore?.literal == "1699999400.0")
        #expect(record.expiration?.literal == "1700003000.5")
        #expect(record.lifetime == 3600.5)
        #expect(record.remaining == 3000.5)
    }

    @Test func audienceAsWritten() {
        #expect(audit(TestTokens.claims(#""aud":"a","exp":1700003000"#)).audience == .single("a"))
        #expect(audit(TestTokens.claims(#""aud":["a","b"],"exp":1700003000"#)).audience == .list(["a", "b"]))
        #expect(audit(TestTokens.claims(#""aud":["a"],"exp":1700003000"#)).audience == .list(["a"]))
    }

    @Test func keyID() {
        let record = audit(TestTokens.make(header: #"{"alg":"RS256","kid":"key-1"}"#, payload: #"{"exp":1700003000}"#))
        #expect(record.keyID == "key-1")
        #expect(record.algorithm == "RS256")
    }

    @Test func referenceIsJTIOrShortHash() {
        let withJTI = audit(TestTokens.claims(#""jti":"abc-123","exp":1700003000"#))
        #expect(withJTI.reference == "abc-123")
        let token = TestTokens.typical()
        let hashed = audit(token)
        let reference = hashed.reference ?? ""
        #expect(reference.hasPrefix("sha256:"))
        #expect(reference.count == 7 + 16)
        #expect(reference.dropFirst(7).allSatisfy { $0.isHexDigit })
        #expect(audit(token).reference == reference, "stable")
        #expect(audit(TestTokens.typical(index: 1)).reference != reference)
    }

    @Test func hashedReferenceIsTheSHA256Prefix() {
        // SHA-256("abc") = ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad
        let reference = Array("abc".utf8).withUnsafeBytes { TokenReference.hashed($0) }
        #expect(reference == "sha256:ba7816bf8f01cfea")
        var scratch = AuditScratch()
        for _ in 0..<3 {
            #expect(Array("abc".utf8).withUnsafeBytes { TokenReference.hashed($0, scratch: &scratch) } == reference, "context reuse")
        }
    }

    @Test func referenceCanBeSkipped() {
        let policy = AuditPolicy(now: TestTokens.instant, computeReferences: false)
        #expect(audit(TestTokens.typical(), policy: policy).reference == nil)
    }

    @Test func controlCharactersInJTIAreSanitized() {
        let record = audit(TestTokens.claims(#""jti":"a\u001b[31mb","exp":1700003000"#))
        #expect(record.reference == "a?[31mb")
        #expect(DisplayText.sanitized("abcdef", maxCharacters: 4) == "abc…")
        #expect(DisplayText.sanitized("abcd", maxCharacters: 4) == "abcd")
    }
}
