import Foundation
import Testing
import TokenKitTestSupport

/// Every fuzz target's checked-in seed corpus (`Fuzz/Corpus/TARGET`) and every past finding
/// (`Fuzz/Findings/TARGET`) replayed through the target's harness in the ordinary test run, by
/// the replay build of `fuzz-TARGET` (the same harness libFuzzer drives; a broken property
/// stops it with `fuzz finding: …`). A change that breaks a property on a known input fails
/// here, before any fuzzing; `scripts/fuzz` replays the findings again under AddressSanitizer
/// and LeakSanitizer.
@Suite("Fuzz corpora and findings replay")
struct FuzzCorpusReplayTests {
    /// The targets: one directory per target under Fuzz/Corpus.
    static let targets: [String] = (try? FileManager.default.contentsOfDirectory(atPath: SourceTree.path("Fuzz/Corpus")).filter { !$0.hasPrefix(".") }.sorted()) ?? []

    /// The regular files of `directory` (what the replay driver reads).
    static func inputs(in directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).filter { !$0.hasPrefix(".") }
    }

    @Test("every target has a corpus, and every finding belongs to a target")
    func layout() throws {
        #expect(Self.targets.count >= 3, "Fuzz/Corpus: \(Self.targets)")
        let findings = (try? FileManager.default.contentsOfDirectory(atPath: SourceTree.path("Fuzz/Findings"))) ?? []
        for directory in findings where !directory.hasPrefix(".") {
            #expect(Self.targets.contains(directory), "Fuzz/Findings/\(directory) names no fuzz target (one directory per target)")
        }
    }

    @Test("the harness holds on every seed input and every past finding", arguments: targets)
    func replay(_ target: String) async throws {
        let corpus = SourceTree.path("Fuzz/Corpus/\(target)")
        let findings = SourceTree.path("Fuzz/Findings/\(target)")
        var paths = [corpus]
        var expected = try Self.inputs(in: corpus).count
        #expect(expected > 0, "Fuzz/Corpus/\(target) is empty")
        if FileManager.default.fileExists(atPath: findings) {
            paths.append(findings)
            expected += try Self.inputs(in: findings).count
        }
        let binary = try BuiltBinary.path(named: "fuzz-\(target)")
        let outcome = try await ChildProcess(binary, paths).run(timeout: .seconds(600))
        #expect(outcome.status == 0 && outcome.signal == nil, "fuzz-\(target): \(outcome.stderrText.suffix(2000))")
        #expect(outcome.stdoutText == "replayed \(expected) inputs\n", "\(outcome.stdoutText)")
    }
}
