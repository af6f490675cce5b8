import Foundation
import Testing
@testable import TokenKit

/// The JSON reader fuzz target's property (`JSONReaderConformance`) on its checked-in seed
/// corpus (`Fuzz/Corpus/json-reader`), in the ordinary test run: a change that makes a claims
/// view disagree with the builder on one of these inputs fails here before any fuzzing.
@Suite("Fuzz corpus: JSON builder and claims views agree")
struct JSONReaderCorpusTests {
    static let corpus = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz/Corpus/json-reader")

    @Test("every seed input: the builder and every view agree")
    func seedsAgree() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.corpus.path).sorted()
        #expect(names.count >= 50, "seed corpus missing or truncated at \(Self.corpus.path)")
        for name in names {
            let bytes = [UInt8](try Data(contentsOf: Self.corpus.appendingPathComponent(name)))
            #expect(JSONReaderConformance.disagreement(in: bytes) == nil, "\(name)")
        }
    }

    @Test("the seeds cover both verdicts: some inputs accepted, some refused by the builder")
    func seedsCoverBothVerdicts() throws {
        var accepted = 0, refused = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: Self.corpus.path) {
            let bytes = [UInt8](try Data(contentsOf: Self.corpus.appendingPathComponent(name)))
            if (try? StrictJSONParser.parseObject(bytes, maxDepth: ParsingLimits.default.maxDepth)) != nil { accepted += 1 } else { refused += 1 }
        }
        #expect(accepted > 0 && refused > 0, "accepted \(accepted), refused \(refused)")
    }
}
