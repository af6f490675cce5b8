import Foundation
import Testing
import TokenKitTestSupport

@Suite("tokenkit audit --json: the contract, key by key")
struct AuditJSONContractTests {
    static let okToken = Tokens.claims(#""iss":"https://issuer.example","sub":"alice","aud":"api","iat":1699998200,"exp":1700001800"#, kid: "k1")

    @Test func okLineExactly() async throws {
        let result = try await TokenKitCLI().run(["audit", "--json", "--now", Tokens.now], stdin: Self.okToken + "\n", environment: .inherited)
        #expect(result.status == 0)
        #expect(result.lines == [
            #"{"line":1,"status":"ok","alg":"HS256","kid":"k1","iss":"https://issuer.example","sub":"alice","aud":"api","iat":1699998200,"nbf":null,"exp":1700001800,"lifetime":3600,"remaining":1800,"findings":[],"file":"-"}"#,
        ])
        #expect(result.stderr.isEmpty)
    }

    @Test func keysInContractOrderOnEveryLine() async throws {
        let input = [
            Self.okToken,
            "garbage",
            Tokens.claims(#""aud":["a","b"],"nbf":1700000100,"exp":1.7000036e9"#),
            Tokens.claims(#""iat":1699990000"#, alg: "none"),
        ].joined(separator: "\n")
        let result = try await TokenKitCLI().run(["audit", "--json", "--now", Tokens.now], stdin: input, environment: .inherited)
        #expect(result.status == 1)
        #expect(result.lines.count == 4)
        let keys = ["line", "status", "alg", "kid", "iss", "sub", "aud", "iat", "nbf", "exp", "lifetime", "remaining", "findings", "file"]
        for line in result.lines {
            var position = line.startIndex
            for key in keys {
                let range = try #require(line.range(of: "\"\(key)\":", range: position..<line.endIndex), "\(key) in \(line)")
                position = range.upperBound
            }
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(Set(object.keys) == Set(keys))
        }
    }

    @Test("strings are JSON-escaped exactly (quote, backslash, controls, DEL, bidi) and every other byte kept, so each value round-trips")
    func stringsEscapedAndRoundTrip() async throws {
        // The payload writes sub with JSON escapes; the value is a"b\c, LF, U+0001, DEL, é, U+202E, tab.
        let token = Tokens.claims(#""iss":"plain","sub":"a\"b\\c\n\u0001\u007f\u00e9\u202e\t","exp":1700001800"#, kid: "k\\\"1")
        let result = try await TokenKitCLI().run(["audit", "--json", "--now", Tokens.now], stdin: token + "\n", environment: .inherited)
        let line = try #require(result.lines.first)
        #expect(line.contains(#""sub":"a\"b\\c\n\u0001\u007f"# + "\u{E9}" + #"\u202e\t","aud""#), "\(line)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["sub"] as? String == "a\"b\\c\n\u{01}\u{7F}\u{E9}\u{202E}\t")
        #expect(object["iss"] as? String == "plain")
        #expect(object["kid"] as? String == "k\"1")
    }

    @Test func malformedLineHasNullsAndOnlyMalformed() async throws {
        let result = try await TokenKitCLI().run(["audit", "--json", "--now", Tokens.now], stdin: "# c\n\nnot.a.token\n", environment: .inherited)
        #expect(result.status == 1)
        #expect(result.lines == [
            #"{"line":3,"status":"malformed","alg":null,"kid":null,"iss":null,"sub":null,"aud":null,"iat":null,"nbf":null,"exp":null,"lifetime":null,"remaining":null,"findings":["malformed"],"file":"-"}"#,
        ])
    }

    @Test func numbersAsInTheTokenAndArrayAudience() async throws {
        let token = Tokens.claims(#""aud":["a","b"],"iat":1.6999982e9,"nbf":1699998200.0,"exp":1700001800.5"#)
        let result = try await TokenKitCLI().run(["audit", "--json", "--now", Tokens.now], stdin: token, environment: .inherited)
        #expect(result.lines.first?.contains(#""aud":["a","b"],"iat":1.6999982e9,"nbf":1699998200.0,"exp":1700001800.5,"lifetime":3600.5,"remaining":1800.5,"#) == true)
    }

    @Test func everyStatusAndContractFinding() async throws {
        let input = [
            Tokens.claims(#""iat":1699990000,"exp":1700000000"#),                 // 1 expired (exp == now)
            Tokens.claims(#""iat":1699990000,"nbf":1700000500,"exp":1700009000"#), // 2 not-yet-valid
            Tokens.claims(#""iat":1699990000"#),                                  // 3 no-expiry
            "a.b.c",                                                             // 4 malformed
            Tokens.claims(#""exp":1700009000"#, alg: "none"),                     // 5 ok + alg-none, no-iat
            Tokens.claims(#""iat":1700000100,"exp":1700009000"#),                 // 6 ok + iat-in-future
            Tokens.claims(#""iat":1699990000,"exp":1700090000"#),                 // 7 ok + lifetime-exceeds-max (100000 > 86400)
            Tokens.claims(#""iat":1699990000,"exp":1700076400"#),                 // 8 ok, lifetime == 86400: not exceeded
        ].joined(separator: "\n")
        let result = try await TokenKitCLI().run(["audit", "--json", "--now", Tokens.now, "--max-lifetime", "1d"], stdin: input, environment: .inherited)
        let objects = try result.lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        let statuses = objects.map { $0["status"] as? String }
        #expect(statuses == ["expired", "not-yet-valid", "no-expiry", "malformed", "ok", "ok", "ok", "ok"])
        let findings = objects.map { $0["findings"] as? [String] ?? ["?"] }
        #expect(findings == [
            ["expired"], ["not-yet-valid"], ["no-exp"], ["malformed"], ["alg-none", "no-iat"], ["iat-in-future"],
            ["lifetime-exceeds-max"], [],
        ])
        #expect(objects[0]["remaining"] as? Int == 0)
        #expect(objects[6]["lifetime"] as? Int == 100_000)
        #expect(result.status == 1)
    }
}
