import Foundation
import Testing
import TokenKitTestSupport

@Suite("tokenkit audit exit codes and inputs")
struct AuditExitCodeTests {
    static let ok = Tokens.claims(#""iat":1699998200,"exp":1700001800"#)
    static let expired = Tokens.claims(#""iat":1699990000,"exp":1699999000"#)

    @Test func zeroWhenNoFinding() async throws {
        #expect(try await TokenKitCLI().run(["audit", "--now", Tokens.now], stdin: Self.ok, environment: .inherited).status == 0)
        #expect(try await TokenKitCLI().run(["audit", "--now", Tokens.now], stdin: "", environment: .inherited).status == 0)
    }

    @Test func oneWhenAnyFinding() async throws {
        #expect(try await TokenKitCLI().run(["audit", "--now", Tokens.now], stdin: Self.expired, environment: .inherited).status == 1)
    }

    @Test func failOnSelectsFindings() async throws {
        let noIat = Tokens.claims(#""exp":1700001800"#)
        #expect(try await TokenKitCLI().run(["audit", "--now", Tokens.now, "--fail-on", "expired,malformed"], stdin: noIat, environment: .inherited).status == 0)
        #expect(try await TokenKitCLI().run(["audit", "--now", Tokens.now, "--fail-on", "no-iat"], stdin: noIat, environment: .inherited).status == 1)
        #expect(try await TokenKitCLI().run(["audit", "--now", Tokens.now, "--no-fail-on"], stdin: Self.expired, environment: .inherited).status == 0)
    }

    @Test(arguments: [
        ["--now", "yesterday"], ["--now", "nan"], ["--max-lifetime", "1y"], ["--max-lifetime", "-5"],
        ["--max-lifetime", ""], ["--warn-within", "soon"], ["--fail-on", "bogus"], ["--json", "--format", "csv"],
        ["--fail-on", "expired", "--no-fail-on"], ["--format", "xml"],
    ])
    func usageErrorsExit64(arguments: [String]) async throws {
        let result = try await TokenKitCLI().run(["audit"] + arguments, stdin: Self.ok, environment: .inherited)
        #expect(result.status == 64)
        #expect(result.stdoutText.isEmpty)
        #expect(!result.stderr.isEmpty)
    }

    @Test func unreadableFileExits2BeforeAnyOutput() async throws {
        let files = try PrivateTemporaryDirectory(prefix: "tokenkit-audit")
        let good = try files.write("tokens.txt", Self.ok + "\n")
        let result = try await TokenKitCLI().run(["audit", "--json", "--now", Tokens.now, good, "/nonexistent/tokens.txt"], environment: .inherited)
        #expect(result.status == 2)
        #expect(result.stdoutText.isEmpty)
        #expect(result.stderr.hasPrefix("error: "))
        #expect(result.stderr.contains("/nonexistent/tokens.txt"))
        let directory = URL(fileURLWithPath: good).deletingLastPathComponent().path
        #expect(try await TokenKitCLI().run(["audit", directory], environment: .inherited).status == 2)
    }

    @Test func linesCountPerFileAndFileIsThePathAsGiven() async throws {
        let files = try PrivateTemporaryDirectory(prefix: "tokenkit-audit")
        let first = try files.write("first.txt", "# one\n\(Self.ok)\n")
        let second = try files.write("second.txt", "\n\n\(Self.expired)\r\n")
        let result = try await TokenKitCLI().run(["audit", "--json", "--now", Tokens.now, first, "-", second], stdin: Self.ok + "\n", environment: .inherited)
        let objects = try result.lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(objects.map { $0["file"] as? String } == [first, "-", second])
        #expect(objects.map { $0["line"] as? Int } == [2, 1, 3])
        #expect(objects.map { $0["status"] as? String } == ["ok", "ok", "expired"])
    }

    @Test func crlfCommentsBlankLinesAndMalformedLinesGoOn() async throws {
        let input = "# tokens\r\n\r\n\(Self.ok)\r\nnot a token\r\n\u{FF}garbage\n  \(Self.expired)  \r\n"
        let result = try await TokenKitCLI().run(["audit", "--json", "--now", Tokens.now], stdin: input, environment: .inherited)
        let objects = try result.lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(objects.map { $0["line"] as? Int } == [3, 4, 5, 6])
        #expect(objects.map { $0["status"] as? String } == ["ok", "malformed", "malformed", "expired"])
        #expect(result.status == 1)
    }

    @Test func invalidUTF8BytesAreMalformed() async throws {
        let files = try PrivateTemporaryDirectory(prefix: "tokenkit-audit")
        let path = try files.write("tokens.txt", bytes: [0xC3, 0x28, 0x0A] + Array(Self.ok.utf8) + [0x0A])
        let result = try await TokenKitCLI().run(["audit", "--json", "--now", Tokens.now, path], environment: .inherited)
        #expect(result.lines.count == 2)
        #expect(result.lines.first?.contains(#""status":"malformed""#) == true)
        #expect(result.lines.last?.contains(#""status":"ok""#) == true)
    }
}

@Suite("tokenkit audit options")
struct AuditOptionTests {
    @Test func durationForms() async throws {
        let token = Tokens.claims(#""iat":1699996400,"exp":1700003600"#)  // lifetime 7200
        for (duration, exceeds) in [("1h", true), ("3600", true), ("120m", false), ("7200s", false), ("1d", false), ("7199", true)] {
            let result = try await TokenKitCLI().run(["audit", "--json", "--now", Tokens.now, "--max-lifetime", duration], stdin: token, environment: .inherited)
            #expect(result.lines.first?.contains("lifetime-exceeds-max") == exceeds, "\(duration)")
        }
    }

    @Test func nowDefaultsToTheSystemClock() async throws {
        let future = Tokens.claims(#""iat":1700000000,"exp":4000000000"#)
        let past = Tokens.claims(#""iat":1000000000,"exp":1000003600"#)
        let result = try await TokenKitCLI().run(["audit", "--json"], stdin: future + "\n" + past, environment: .inherited)
        #expect(result.lines.count == 2)
        #expect(result.lines[0].contains(#""status":"ok""#))
        #expect(result.lines[1].contains(#""status":"expired""#))
    }

    @Test func fractionalNow() async throws {
        let result = try await TokenKitCLI().run(["audit", "--json", "--now", "1700000000.5"], stdin: Tokens.claims(#""iat":1699996400,"exp":1700003600"#), environment: .inherited)
        #expect(result.lines.first?.contains(#""lifetime":7200,"remaining":3599.5,"#) == true)
    }

    @Test func helpListsTheCommand() async throws {
        let result = try await TokenKitCLI().run(["audit", "--help"], environment: .inherited)
        #expect(result.status == 0)
        #expect(result.stdoutText.contains("--max-lifetime"))
        #expect(result.stdoutText.contains("--fail-on"))
    }
}
