import Foundation
import Testing
import TokenKit
@testable import TokenKitAudit

@Suite("Audit findings")
struct FindingTests {
    @Test(arguments: ["none", "None", "NONE"])
    func algNoneDecodesAndIsFlagged(alg: String) {
        let record = audit(TestTokens.make(header: #"{"alg":"\#(alg)"}"#, payload: #"{"iat":1699999000,"exp":1700003000}"#, signature: ""))
        #expect(record.status == .ok)
        #expect(names(record.findings) == ["alg-none"])
        #expect(record.algorithm == alg)
    }

    @Test func noIat() {
        let record = audit(TestTokens.claims(#""exp":1700003000"#))
        #expect(record.status == .ok)
        #expect(names(record.findings) == ["no-iat"])
        #expect(record.lifetime == nil)
        #expect(record.remaining == 3000)
    }

    @Test func noExpNoIat() {
        let record = audit(TestTokens.claims(#""sub":"x""#))
        #expect(names(record.findings) == ["no-exp", "no-iat"])
    }

    @Test func lifetimeExceedsMaxOnlyWhenGreater() {
        let token = TestTokens.claims(#""iat":1699999000,"exp":1700002600"#)  // lifetime 3600
        #expect(audit(token, policy: AuditPolicy(now: TestTokens.instant, maxLifetime: .seconds(3600))).findings.isEmpty)
        let over = audit(token, policy: AuditPolicy(now: TestTokens.instant, maxLifetime: .seconds(3599)))
        #expect(names(over.findings) == ["lifetime-exceeds-max"])
        #expect(over.status == .ok)
        #expect(audit(token).findings.isEmpty, "no max: never flagged")
    }

    @Test func iatInFuture() {
        let record = audit(TestTokens.claims(#""iat":1700000001,"exp":1700003000"#))
        #expect(record.status == .ok)
        #expect(names(record.findings) == ["iat-in-future"])
        let atNow = audit(TestTokens.claims(#""iat":1700000000,"exp":1700003000"#))
        #expect(atNow.findings.isEmpty)
    }

    @Test func expiresSoon() {
        let policy = AuditPolicy(now: TestTokens.instant, warnWithin: .seconds(3000))
        #expect(names(audit(TestTokens.claims(#""iat":1699999000,"exp":1700003000"#), policy: policy).findings) == ["expires-soon"])
        #expect(audit(TestTokens.claims(#""iat":1699999000,"exp":1700003001"#), policy: policy).findings.isEmpty)
        let expired = audit(TestTokens.claims(#""iat":1699999000,"exp":1700000000"#), policy: policy)
        #expect(names(expired.findings) == ["expired"], "an expired token is not 'expiring soon'")
    }

    @Test("policy times set after init apply like those given to it: now, maxLifetime, warnWithin")
    func policyTimesSetAfterInit() {
        var policy = AuditPolicy(now: Date(timeIntervalSince1970: 0))
        policy.now = TestTokens.instant
        policy.maxLifetime = .milliseconds(3_599_500)
        policy.warnWithin = .seconds(3000)
        let token = TestTokens.claims(#""iat":1699999000,"exp":1700002600"#)  // lifetime 3600, 2600 left
        #expect(names(audit(token, policy: policy).findings) == ["lifetime-exceeds-max", "expires-soon"])
        policy.maxLifetime = nil
        policy.warnWithin = nil
        #expect(audit(token, policy: policy).findings.isEmpty)
        #expect(policy.now == TestTokens.instant)
    }

    @Test func missingClaim() {
        let policy = AuditPolicy(now: TestTokens.instant, requiredClaims: ["sub", "scope", "jti"])
        let record = audit(TestTokens.claims(#""sub":"a","iat":1699999000,"exp":1700003000"#), policy: policy)
        #expect(names(record.findings) == ["missing-claim"])
        #expect(record.missingClaims == ["scope", "jti"])
        #expect(record.status == .ok)
    }

    @Test func algNotAllowed() {
        let policy = AuditPolicy(now: TestTokens.instant, allowedAlgorithms: ["RS256", "ES256"])
        let record = audit(TestTokens.typical(), policy: policy)
        #expect(names(record.findings) == ["alg-not-allowed"])
        let allowed = audit(TestTokens.claims(#""iat":1699999000,"exp":1700003000"#, alg: "RS256"), policy: policy)
        #expect(allowed.findings.isEmpty)
    }

    @Test("allowed algs are compared byte for byte: ES256 with KELVIN SIGN does not allow ES256K (issue 23)")
    func algNotAllowedExactly() {
        let policy = AuditPolicy(now: TestTokens.instant, allowedAlgorithms: ["ES256\u{212A}"])
        #expect(policy.allowedAlgorithms?.contains("ES256K") == false)
        let record = audit(TestTokens.claims(#""iat":1699999000,"exp":1700003000"#, alg: "ES256K"), policy: policy)
        #expect(names(record.findings) == ["alg-not-allowed"])
        let exact = AuditPolicy(now: TestTokens.instant, allowedAlgorithms: ["ES256K"])
        #expect(audit(TestTokens.claims(#""iat":1699999000,"exp":1700003000"#, alg: "ES256K"), policy: exact).findings.isEmpty)
    }

    @Test func badSignatureIsAFindingNotAnError() throws {
        let key = try JWTKey.hmac(secret: Array(repeating: UInt8(7), count: 32))
        let signer = try JWTSigner(key: key)
        var claims = JWTClaims()
        claims["iat"] = .number(JSONNumber(1_699_999_000))
        claims["exp"] = .number(JSONNumber(1_700_003_000))
        let good = try signer.sign(claims)
        let checker = AuditSignatureChecker(keys: JWKSet(keys: [key]))
        let ok = audit(good, checker: checker)
        #expect(ok.findings.isEmpty)
        #expect(ok.problem == nil)

        let otherKey = try JWTKey.hmac(secret: Array(repeating: UInt8(8), count: 32))
        let forged = try JWTSigner(key: otherKey).sign(claims)
        let bad = audit(forged, checker: checker)
        #expect(names(bad.findings) == ["bad-signature"])
        #expect(bad.status == .ok)
        #expect(bad.problem?.contains("signature") == true)

        let unsigned = audit(TestTokens.claims(#""iat":1699999000,"exp":1700003000"#, alg: "none"), checker: checker)
        #expect(names(unsigned.findings) == ["alg-none", "bad-signature"])
    }

    @Test func findingsHaveStableNamesAndOrder() {
        #expect(AuditFinding.all.map(\.rawValue) == [
            "alg-none", "no-exp", "no-iat", "lifetime-exceeds-max", "expired", "not-yet-valid", "iat-in-future",
            "malformed", "expires-soon", "missing-claim", "alg-not-allowed", "bad-signature",
        ])
        #expect(AuditFinding(rawValue: "expired") == .expired)
        #expect(AuditFinding(rawValue: "nope") == nil)
        let set = AuditFindings([.expired, .algNone])
        #expect(names(set) == ["alg-none", "expired"])
        #expect(set.intersects(AuditFindings([.expired])))
        #expect(!set.intersects(AuditFindings([.noIat])))
    }
}
