import Foundation
import Testing
import TokenKit
@testable import TokenKitAudit
import TokenKitTestSupport

@Suite("Engine, runner and summary")
struct EngineTests {
    @Test func parallelAuditKeepsInputOrder() {
        var batch = AuditBatch(source: "mem")
        for i in 0..<5000 { batch.append(i % 7 == 0 ? "garbage-\(i)" : TestTokens.typical(index: i), line: i + 1) }
        let engine = AuditEngine(auditor: TokenAuditor(policy: AuditPolicy(now: TestTokens.instant)), parallelism: 4)
        let records = engine.audit(batch)
        #expect(records.count == 5000)
        #expect(records.map(\.line) == Array(1...5000))
        for (i, record) in records.enumerated() {
            #expect(record.status == (i % 7 == 0 ? .malformed : .ok))
            if i % 7 != 0 { #expect(record.subject == "user-\(i)") }
        }
    }

    @Test func largeGeneratedFileCounts() throws {
        // 100,000 tokens: 1 in 10 expired, 1 in 20 without exp, 1 in 50 malformed, the rest ok.
        let directory = try PrivateTemporaryDirectory(prefix: "audit-large")
        defer { withExtendedLifetime(directory) {} }
        let path = directory.file("tokens.txt")
        var text = "# generated\n"
        var expected: [AuditStatus: Int] = [:]
        for i in 0..<100_000 {
            let token: String
            let status: AuditStatus
            if i % 50 == 0 {
                token = "broken.\(i)"; status = .malformed
            } else if i % 10 == 0 {
                token = TestTokens.claims(#""sub":"u\#(i)","iat":1699990000,"exp":1699999999"#); status = .expired
            } else if i % 20 == 5 {
                token = TestTokens.claims(#""sub":"u\#(i)","iat":1699990000"#); status = .noExpiry
            } else {
                token = TestTokens.claims(#""sub":"u\#(i)","iat":1699990000,"exp":\#(1_700_000_000 + i)"#); status = .ok
            }
            expected[status, default: 0] += 1
            text += token + (i % 2 == 0 ? "\n" : "\r\n")
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))

        let policy = AuditPolicy(now: TestTokens.instant, computeReferences: false)
        let runner = AuditRunner(engine: AuditEngine(auditor: TokenAuditor(policy: policy)), batchSize: 4096)
        var builder = AuditSummaryBuilder(failOn: policy.failOn)
        var lastLine = 0
        var emitted = 0
        try runner.audit(try TokenLineReader(path: path), into: &builder) { records in
            for record in records {
                #expect(record.line == lastLine + 1 || lastLine == 0)
                lastLine = record.line
            }
            emitted += records.count
        }
        let summary = builder.finish()
        #expect(emitted == 100_000)
        #expect(lastLine == 100_001)
        #expect(summary.total == 100_000)
        for status in AuditStatus.allCases { #expect(summary.statusCounts[status] == (expected[status] ?? 0), "\(status)") }
        #expect(summary.findingCounts[.malformed] == expected[.malformed])
        #expect(summary.findingCounts[.noExp] == expected[.noExpiry])
        #expect(summary.failing == (expected[.malformed] ?? 0) + (expected[.expired] ?? 0) + (expected[.noExpiry] ?? 0))
        #expect(summary.failed)
    }

    @Test func summaryStatistics() {
        let policy = AuditPolicy(now: TestTokens.instant, failOn: AuditFindings([.expired]))
        var builder = AuditSummaryBuilder(failOn: policy.failOn)
        let lifetimes = [60, 120, 180, 240, 300, 360, 420, 480, 540, 600, 660, 720, 780, 840, 900, 960, 1020, 1080, 1140, 86_400]
        for (i, lifetime) in lifetimes.enumerated() {
            // exp = now + 100 * (i + 1); iat = exp - lifetime
            let exp = 1_700_000_000 + 100 * (i + 1)
            builder.add(audit(TestTokens.claims(#""jti":"t\#(i)","iat":\#(exp - lifetime),"exp":\#(exp)"#), policy: policy))
        }
        builder.add(audit(TestTokens.claims(#""jti":"old","iat":1600000000,"exp":1600000060"#), policy: policy))
        builder.add(audit(TestTokens.claims(#""jti":"forever","iat":1600000000"#), policy: policy))
        let summary = builder.finish()
        #expect(summary.total == 22)
        #expect(summary.statusCounts[.ok] == 20)
        #expect(summary.statusCounts[.expired] == 1)
        #expect(summary.statusCounts[.noExpiry] == 1)
        #expect(summary.statusCounts[.malformed] == 0)
        #expect(summary.failing == 1, "only 'expired' fails with this policy")
        let stats = summary.lifetimes
        #expect(stats?.count == 21)
        #expect(stats?.min == 60)
        #expect(stats?.median == 600)  // nearest rank: 11th of 21 sorted values
        #expect(stats?.p95 == 1140)    // 20th of 21
        #expect(stats?.max == 86_400)
        #expect(summary.soonestExpiry?.reference == "t0")
        #expect(summary.soonestExpiry?.seconds == 100)
        #expect(summary.longestLived?.reference == "t19")
        #expect(summary.longestLived?.seconds == 86_400)
    }

    @Test func emptySummary() {
        let summary = AuditSummaryBuilder(failOn: AuditFindings(AuditFinding.all)).finish()
        #expect(summary.total == 0)
        #expect(summary.lifetimes == nil)
        #expect(summary.soonestExpiry == nil)
        #expect(!summary.failed)
    }
}
