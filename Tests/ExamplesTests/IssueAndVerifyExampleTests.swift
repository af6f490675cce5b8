import Foundation
import Testing
import TokenKitTestSupport

/// Runs the built examples and checks what they print, so the examples keep working.
@Suite("Examples")
struct IssueAndVerifyExampleTests {
    static func runExample(_ name: String) async throws -> (status: Int32, output: String) {
        let outcome = try await ChildProcess(try BuiltBinary.path(named: name), stdin: .inherit).run()
        // Both streams, stdout first (the assertions look for lines in either).
        return (outcome.status, outcome.stdoutText + outcome.stderrText)
    }

    @Test("issue-and-verify verifies both accounts and refuses expired, wrong-audience and forged tokens")
    func issueAndVerify() async throws {
        let (status, output) = try await Self.runExample("issue-and-verify")
        #expect(status == 0, "\(output)")
        #expect(output.contains("verified parent-42 (role parent)"))
        #expect(output.contains("verified child-7 (role child, parent parent-42)"))
        #expect(output.contains("refused an hour later: token expired at 2026-11-18T11:21:40Z (now 2026-11-18T12:06:40Z)"))
        #expect(output.contains("refused for another audience: audience mismatch"))
        #expect(output.contains("refused signed by a stranger's key with our kid: bad signature"))
        #expect(!output.contains("UNEXPECTED"))
    }
}
