import Foundation
import Testing
import TokenKitTestSupport

/// The documentation's code, compiled from the documents themselves: scripts/extract-snippets
/// writes every ```swift block of README.md, Examples/README.md and the DocC articles into
/// Generated/ (one function per block, exactly as written), this target compiles them, and
/// these tests check that Generated/ matches the documents and run the blocks marked
/// `runnable`.
enum ReadmeSnippets {
    /// One extracted block.
    struct Snippet: Sendable, CustomTestStringConvertible {
        let document: String
        let line: Int
        let runnable: Bool
        let body: @Sendable () async throws -> Void
        var testDescription: String { "\(document):\(line)" }
    }
}

@Suite("Documentation code blocks")
struct ReadmeSnippetTests {
    @Test("Generated/ is what scripts/extract-snippets makes of the documents now (no block edited without re-extracting)")
    func generatedIsCurrent() async throws {
        let outcome = try await ChildProcess("/usr/bin/env", ["python3", SourceTree.path("scripts/extract-snippets"), "--check"]).run(timeout: .seconds(120))
        #expect(outcome.status == 0, "\(outcome.stderrText)")
    }

    #if TOKENKIT_README_SNIPPETS_POSTGRES && TOKENKIT_README_SNIPPETS_HUMMINGBIRD && TOKENKIT_README_SNIPPETS_ASYNCHTTPCLIENT
    @Test("the extracted blocks are compiled into this target", .enabled(if: !ReadmeSnippets.all.isEmpty))
    func compiled() {
        #expect(ReadmeSnippets.all.contains { $0.document == "README.md" })
    }

    @Test("every block marked runnable runs without throwing", arguments: ReadmeSnippets.all.filter(\.runnable))
    func runnable(_ snippet: ReadmeSnippets.Snippet) async throws {
        try await snippet.body()
    }
    #else
    @Test("the blocks are compiled in every test run that builds the integrations (scripts/test)")
    func compiled() throws {
        try ServiceGate.require(false, otherwise: "the documentation's blocks need every integration trait (build with --enable-all-traits)", requiredBy: "TOKENKIT_REQUIRE_README_SNIPPETS")
    }
    #endif
}
