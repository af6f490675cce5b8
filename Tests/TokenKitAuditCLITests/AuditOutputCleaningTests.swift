import Foundation
import Testing
import TokenKitTestSupport

/// `tokenkit audit` output is clean (issue 23 item 6): `--json` writes every control,
/// separator, bidirectional and invisible character of a token as a `\uXXXX` escape (the line
/// stays valid JSON and decodes to the token's strings); the table and CSV replace them.
@Suite("tokenkit audit: clean terminal output")
struct AuditOutputCleaningTests {
    /// Every sample, in one string, with printable text around it.
    static let hostile = "<" + String(String.UnicodeScalarView(UnsafeTextSamples.all.map(\.scalar))) + ">" + UnsafeTextSamples.printable

    /// A token carrying the hostile text in kid, iss, sub and aud.
    static var token: String {
        let text = UnsafeTextSamples.jsonEscaped(hostile)
        return Tokens.make(header: #"{"alg":"HS256","kid":"\#(text)"}"#,
                           payload: #"{"iss":"\#(text)","sub":"\#(text)","aud":["\#(text)","api"],"iat":1699998200,"exp":1700001800}"#)
    }

    @Test("--json escapes every class in kid, iss, sub and aud; the line is valid JSON and decodes to the token's strings")
    func jsonLines() async throws {
        let result = try await TokenKitCLI().run(["audit", "--json", "--now", Tokens.now], stdin: Self.token + "\n", environment: .inherited)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.lines.count == 1)
        let line = try #require(result.lines.first)
        #expect(UnsafeTextSamples.rawSamples(in: line).isEmpty, "\(line.debugDescription)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        for key in ["kid", "iss", "sub"] {
            #expect(object[key] as? String == Self.hostile, "\(key)")
        }
        #expect(object["aud"] as? [String] == [Self.hostile, "api"])
    }

    @Test("--json escapes the file name too (a store account or a path)")
    func jsonFileName() async throws {
        let files = try PrivateTemporaryDirectory(prefix: "tokenkit-audit")
        let name = "tokens" + String(String.UnicodeScalarView(UnsafeTextSamples.all.map(\.scalar).filter { $0.value != 0 && $0 != "/" }))
        let path = try files.write(name, Self.token + "\n")
        let result = try await TokenKitCLI().run(["audit", "--json", "--now", Tokens.now, path], environment: .inherited)
        let line = try #require(result.lines.first, "\(result.stderr)")
        #expect(UnsafeTextSamples.rawSamples(in: line).isEmpty, "\(line.debugDescription)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["file"] as? String == path)
    }

    @Test("the table and CSV show each unsafe character as ?, one row a line")
    func tableAndCSV() async throws {
        for format in ["table", "csv"] {
            let result = try await TokenKitCLI().run(["audit", "--format", format, "--now", Tokens.now], stdin: Self.token + "\n", environment: .inherited(adding: ["NO_COLOR": "1"]))
            #expect(result.status == 0, "\(format): \(result.stderr)")
            #expect(UnsafeTextSamples.rawSamples(in: result.stdoutText.replacingOccurrences(of: "\n", with: "")).isEmpty,
                    "\(format): \(result.stdoutText.debugDescription)")
            if format == "csv" {
                #expect(result.lines.count == 2, "\(result.stdoutText.debugDescription)")
                let cleaned = "<" + String(repeating: "?", count: UnsafeTextSamples.all.count) + ">" + UnsafeTextSamples.printable
                #expect(result.lines.last?.contains(",\(cleaned),\(cleaned),\(cleaned) api,") == true, "\(result.stdoutText.debugDescription)")
            }
        }
    }
}
