import Testing
@testable import TokenKitAudit

@Suite("Lifetime distribution in bounded memory")
struct LifetimeDistributionTests {
    @Test func exactWithFewDistinctValues() throws {
        var distribution = LifetimeDistribution()
        for _ in 0..<50_000 { distribution.add(3600) }
        for _ in 0..<50_000 { distribution.add(900) }
        distribution.add(86_400)
        let stats = try #require(distribution.statistics())
        #expect(stats.isExact)
        #expect(stats.count == 100_001)
        #expect(stats.min == 900 && stats.median == 3600 && stats.p95 == 3600 && stats.max == 86_400)
    }

    @Test func manyDistinctValuesFoldIntoTheHistogram() throws {
        var distribution = LifetimeDistribution()
        for value in 1...100_000 { distribution.add(Double(value)) }
        distribution.add(-500)
        let stats = try #require(distribution.statistics())
        #expect(!stats.isExact)
        #expect(stats.count == 100_001)
        #expect(stats.min == -500)
        #expect(stats.max == 100_000)
        #expect(abs(stats.median - 49_999) / 49_999 < 0.004)
        #expect(abs(stats.p95 - 94_999) / 94_999 < 0.004)
    }

    @Test func empty() {
        #expect(LifetimeDistribution().statistics() == nil)
    }
}
