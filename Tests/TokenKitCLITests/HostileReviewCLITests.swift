import Foundation
import Testing
import TokenKitTestSupport

/// CLI findings of the hostile review (issue 9, item 1.5).
@Suite("CLI: hostile review regressions")
struct HostileReviewCLITests {
    @Test("tokenkit with no arguments prints usage on stderr and exits 64")
    func noArguments() async throws {
        let result = try await TokenKitCLI().run([], environment: .inherited)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("USAGE"))
        #expect(result.stderr.contains("decode"))
    }

    @Test("tokenkit --help still prints usage on stdout and exits 0")
    func help() async throws {
        let result = try await TokenKitCLI().run(["--help"], environment: .inherited)
        #expect(result.status == 0)
        #expect(result.stdoutText.contains("USAGE"))
    }

    @Test("decode shows header and payload whatever the signature part holds", arguments: ["!!!", "a", "AB==", "%%", ""])
    func decodeIgnoresSignature(_ signature: String) async throws {
        let token = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJib2IifQ.\(signature)"
        let result = try await TokenKitCLI().run(["decode", token], environment: .inherited)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutText == "{\"header\":{\"alg\":\"HS256\"},\"payload\":{\"sub\":\"bob\"}}\n")
    }

    @Test("an error line never carries a bidi override or C1 control from the token")
    func errorLineCleaned() async throws {
        // {"alg":"HS256","kid":"a<U+202E>b<U+0085>c"}: no key has that kid.
        let header = Data(#"{"alg":"HS256","kid":"a\u202Eb\u0085c"}"#.utf8).base64EncodedString()
            .replacingOccurrences(of: "=", with: "").replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        let dir = try PrivateTemporaryDirectory()
        let k = Data(repeating: 0x61, count: 32).base64EncodedString()
            .replacingOccurrences(of: "=", with: "").replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        let keyFile = try dir.write("key.jwk", #"{"kty":"oct","kid":"other","k":"\#(k)"}"#)
        let result = try await TokenKitCLI().run(["verify", "--key", keyFile, "\(header).e30.c2ln"], environment: .inherited)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("kid"), "\(result.stderr)")
        #expect(!result.stderr.unicodeScalars.contains { $0.value == 0x202E || $0.value == 0x85 }, "\(result.stderr.debugDescription)")
    }
}
