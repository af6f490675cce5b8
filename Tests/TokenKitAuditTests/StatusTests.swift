import Testing
import TokenKit
@testable import TokenKitAudit

@Suite("Audit statuses and their precedence")
struct StatusTests {
    @Test func okToken() {
        let record = audit(TestTokens.typical())
        #expect(record.status == .ok)
        #expect(record.findings.isEmpty)
        #expect(record.lifetime == 3600)
        #expect(record.remaining == 3000)
        #expect(record.issuer == "https://issuer.example")
        #expect(record.subject == "user-0")
        #expect(record.audience == .single("api"))
        #expect(record.algorithm == "HS256")
    }

    @Test func expWithNowIsExpired() {
        let record = audit(TestTokens.claims(#""iat":1699990000,"exp":1700000000"#))
        #expect(record.status == .expired)
        #expect(names(record.findings) == ["expired"])
        #expect(record.remaining == 0)
    }

    @Test func expOneSecondLaterIsOk() {
        let record = audit(TestTokens.claims(#""iat":1699990000,"exp":1700000001"#))
        #expect(record.status == .ok)
        #expect(record.remaining == 1)
    }

    @Test func notYetValid() {
        let record = audit(TestTokens.claims(#""iat":1699990000,"nbf":1700000100,"exp":1700003000"#))
        #expect(record.status == .notYetValid)
        #expect(names(record.findings) == ["not-yet-valid"])
    }

    @Test func nbfEqualToNowIsValid() {
        let record = audit(TestTokens.claims(#""iat":1699990000,"nbf":1700000000,"exp":1700003000"#))
        #expect(record.status == .ok)
    }

    @Test func noExpiry() {
        let record = audit(TestTokens.claims(#""iat":1699990000,"sub":"x""#))
        #expect(record.status == .noExpiry)
        #expect(names(record.findings) == ["no-exp"])
        #expect(record.lifetime == nil)
        #expect(record.remaining == nil)
    }

    @Test func expiredWinsOverNotYetValid() {
        let record = audit(TestTokens.claims(#""iat":1699990000,"nbf":1700000500,"exp":1699999000"#))
        #expect(record.status == .expired)
        #expect(names(record.findings) == ["expired", "not-yet-valid"])
    }

    @Test func notYetValidWinsOverNoExpiry() {
        let record = audit(TestTokens.claims(#""iat":1699990000,"nbf":1700000500"#))
        #expect(record.status == .notYetValid)
        #expect(names(record.findings) == ["no-exp", "not-yet-valid"])
    }

    @Test func otherFindingsKeepStatusOk() {
        let policy = AuditPolicy(now: TestTokens.instant, maxLifetime: .seconds(60))
        let record = audit(TestTokens.claims(#""iat":1699990000,"exp":1700003000"#, alg: "none"), policy: policy)
        #expect(record.status == .ok)
        #expect(names(record.findings) == ["alg-none", "lifetime-exceeds-max"])
    }

    @Test func precedenceOrder() {
        #expect(AuditStatus.malformed > .expired)
        #expect(AuditStatus.expired > .notYetValid)
        #expect(AuditStatus.notYetValid > .noExpiry)
        #expect(AuditStatus.noExpiry > .ok)
    }
}
