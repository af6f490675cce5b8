import Foundation
import Testing
import TokenKitTestSupport

/// What `tokenkit decode` and `verify` write is clean (issue 23 item 6): every control,
/// separator, bidirectional and invisible character of a token — in its claims, its header,
/// its `kid`, a member name — is a `\uXXXX` escape in the JSON output, which stays valid and
/// decodes to exactly the token's strings; every stderr line is cleaned, whatever it echoes.
@Suite("tokenkit decode/verify: clean terminal output")
struct TerminalOutputCLITests {
    /// Every sample, in one string.
    static let hostile = "<" + String(String.UnicodeScalarView(UnsafeTextSamples.all.map(\.scalar))) + ">" + UnsafeTextSamples.printable

    /// base64url of `text`.
    static func b64(_ text: String) -> String {
        Data(text.utf8).base64EncodedString()
            .replacingOccurrences(of: "=", with: "").replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
    }

    /// The header and claims JSON (hostile text as JSON escapes) of the test token.
    static var header: String { #"{"alg":"HS256","kid":"\#(UnsafeTextSamples.jsonEscaped(hostile))","x\#(UnsafeTextSamples.jsonEscaped(hostile))":1}"# }
    static var claims: String {
        let text = UnsafeTextSamples.jsonEscaped(hostile)
        return #"{"sub":"\#(text)","aud":["\#(text)","api"],"nested":{"\#(text)":["\#(text)"]},"n":1}"#
    }

    /// The JSON object printed on stdout (one line), parsed by Foundation.
    static func object(_ result: CLIResult) throws -> [String: Any] {
        #expect(result.stdoutText.hasSuffix("\n") && result.stdoutText.filter { $0 == "\n" }.count == 1, "\(result.stdoutText.debugDescription)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])
    }

    /// Checks that the claims object holds the hostile text exactly where the token put it.
    static func expectHostileClaims(_ payload: [String: Any]?, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(payload?["sub"] as? String == hostile, sourceLocation: sourceLocation)
        #expect(payload?["aud"] as? [String] == [hostile, "api"], sourceLocation: sourceLocation)
        #expect((payload?["nested"] as? [String: Any])?[hostile] as? [String] == [hostile], sourceLocation: sourceLocation)
        #expect(payload?["n"] as? Int == 1, sourceLocation: sourceLocation)
    }

    @Test("decode escapes every class in header, kid, member names and claims; the JSON decodes to the token's strings")
    func decode() async throws {
        let token = Self.b64(Self.header) + "." + Self.b64(Self.claims) + ".c2ln"
        let result = try await TokenKitCLI().run(["decode", token], environment: .inherited)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(UnsafeTextSamples.rawSamples(in: String(result.stdoutText.dropLast())).isEmpty, "\(result.stdoutText.debugDescription)")
        let object = try Self.object(result)
        let header = object["header"] as? [String: Any]
        #expect(header?["kid"] as? String == Self.hostile)
        #expect(header?["x" + Self.hostile] as? Int == 1)
        Self.expectHostileClaims(object["payload"] as? [String: Any])
        #expect(result.stdoutText.contains(#"\u202e"#) && result.stdoutText.contains(#"\udb40\udc41"#))
        #expect(result.stdoutText.contains(UnsafeTextSamples.printable), "printable text is copied as is")
    }

    @Test("verify escapes every class in the claims it prints; the JSON decodes to the token's strings")
    func verify() async throws {
        let dir = try PrivateTemporaryDirectory()
        let secret = try dir.write("hs.key", String(repeating: "s", count: 32))
        let sign = try await TokenKitCLI().run(["sign", "--alg", "HS256", "--secret", secret, Self.claims], environment: .inherited)
        #expect(sign.status == 0, "\(sign.stderr)")
        let token = sign.stdoutText.trimmingCharacters(in: .newlines)
        let result = try await TokenKitCLI().run(["verify", "--secret", secret, token], environment: .inherited)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(UnsafeTextSamples.rawSamples(in: String(result.stdoutText.dropLast())).isEmpty, "\(result.stdoutText.debugDescription)")
        Self.expectHostileClaims(try Self.object(result))
    }

    @Test("an error line that echoes a file name with every class is one cleaned line")
    func errorLineEchoingPath() async throws {
        let dir = try PrivateTemporaryDirectory()
        let name = dir.file("key" + String(String.UnicodeScalarView(UnsafeTextSamples.all.map(\.scalar).filter { $0.value != 0 && $0 != "/" })))
        for args in [["verify", "--key", name, "a.b.c"], ["verify", "--secret", name, "a.b.c"], ["jwk", name],
                     ["sign", "--alg", "ES256", "--key", name, "{}"], ["audit", "--key", name]] {
            let result = try await TokenKitCLI().run(args, stdin: [], environment: .inherited)
            #expect(result.status == 2, "\(args[0]): \(result.stderr)")
            #expect(result.stderr.hasPrefix("error: cannot read the ") && result.stderr.hasSuffix(": no such file\n"), "\(result.stderr.debugDescription)")
            #expect(result.stderrLines.count == 1, "\(result.stderr.debugDescription)")
            #expect(UnsafeTextSamples.rawSamples(in: String(result.stderr.dropLast())).isEmpty, "\(args[0]): \(result.stderr.debugDescription)")
        }
    }

    @Test("argument-parser's own error messages, which echo arguments, are cleaned too")
    func argumentParserMessages() async throws {
        let value = "x" + String(String.UnicodeScalarView(UnsafeTextSamples.all.map(\.scalar).filter { $0.value != 0 && $0 != "\n" })) + "y"
        let result = try await TokenKitCLI().run(["audit", "--fail-on", value], environment: .inherited)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("unknown finding 'x"), "\(result.stderr.debugDescription)")
        #expect(UnsafeTextSamples.rawSamples(in: result.stderr.replacingOccurrences(of: "\n", with: "")).isEmpty, "\(result.stderr.debugDescription)")
        // Help still goes to stdout, unchanged, with exit 0.
        let help = try await TokenKitCLI().run(["verify", "--help"], environment: .inherited)
        #expect(help.status == 0 && help.stdoutText.contains("USAGE") && help.stderr.isEmpty)
    }
}
