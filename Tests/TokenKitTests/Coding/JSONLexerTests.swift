import Testing
@testable import TokenKit

/// The one JSON grammar: its limits, its escape-aware duplicate rule, and the builder and the
/// registered-claims view giving the same answer because one lexer feeds both.
@Suite struct JSONLexerTests {
    /// The builder's and the view's verdicts on `json`: `nil` when accepted, else the reason.
    /// Records an issue when they differ.
    func verdict(_ json: String, sourceLocation: SourceLocation = #_sourceLocation) -> String? {
        let bytes = Array(json.utf8)
        var builder: String?
        do { _ = try StrictJSONParser.parseObject(bytes, maxDepth: 16) } catch { builder = error.reason }
        let view: String? = bytes.withUnsafeBufferPointer { buffer in
            do throws(JSONSyntaxError) {
                _ = try RegisteredClaimsView.read(buffer, maxDepth: 16)
                return nil
            } catch {
                return error.reason
            }
        }
        #expect(builder == view, "the builder and the view must agree", sourceLocation: sourceLocation)
        return builder
    }

    static func object(members count: Int) -> String {
        "{" + (0..<count).map { #""m\#($0)":\#($0)"# }.joined(separator: ",") + "}"
    }

    @Test func anObjectMayHaveAThousandMembersButNotMore() {
        #expect(verdict(Self.object(members: 1_000)) == nil)
        let refused = verdict(Self.object(members: 1_001))
        #expect(refused?.hasPrefix("object with more than 1000 members at offset ") == true, "\(refused ?? "accepted")")
    }

    @Test func aStringMayHave65536BytesButNotMore() {
        let longest = String(repeating: "a", count: 65_536)
        #expect(verdict(#"{"s":"\#(longest)"}"#) == nil)
        #expect(verdict(#"{"s":"\#(longest)a"}"#) == "string longer than 65536 bytes at offset 5")
        #expect(verdict(#"{"\#(longest)a":1}"#) == "string longer than 65536 bytes at offset 1", "member names too")
    }

    @Test func aNumberMayHave64CharactersButNotMore() {
        let longest = String(repeating: "1", count: 64)
        #expect(verdict(#"{"n":\#(longest)}"#) == nil)
        #expect(verdict(#"{"n":\#(longest)1}"#) == "number longer than 64 characters at offset 5")
    }

    @Test func duplicateNamesAreComparedAfterUnescaping() {
        #expect(verdict(#"{"a":1,"\u0061":2}"#) == #"duplicate member name "a" at offset 7"#)
        #expect(verdict(#"{"\u00e9":1,"é":2}"#) == #"duplicate member name "é" at offset 12"#)
        #expect(verdict(#"{"\ud83d\ude00":1,"😀":2}"#) != nil, "a surrogate pair equals the scalar's UTF-8")
        #expect(verdict(#"{"a\/b":1,"a/b":2}"#) != nil)
    }

    @Test func duplicatesAreFoundWhileNamesOfNestedObjectsSpillPastTheStackBuffer() {
        // 30 outer names, then an inner object whose names (and a deeper object's) go past
        // the lexer's 32 names on the stack; when they close, only their names are forgotten.
        func names(_ prefix: String, _ range: Range<Int>) -> String { range.map { #""\#(prefix)\#($0)":\#($0)"# }.joined(separator: ",") }
        let inner = #""inner":{\#(names("b", 0..<10)),"deep":{\#(names("c", 0..<5))},\#(names("b", 10..<15))}"#
        let body = names("a", 0..<30) + "," + inner + "," + names("a", 30..<40)
        #expect(verdict("{\(body)}") == nil)
        #expect(verdict(#"{\#(body),"b0":1,"c0":2,"deep":3}"#) == nil, "names of closed objects are not the outer object's")
        let duplicate = verdict(#"{\#(body),"a5":1}"#)
        #expect(duplicate?.hasPrefix(#"duplicate member name "a5" at offset "#) == true, "\(duplicate ?? "accepted")")
        let innerDuplicate = verdict(#"{\#(names("a", 0..<30)),"inner":{\#(names("b", 0..<10)),"deep":{\#(names("c", 0..<5))},"b3":0}}"#)
        #expect(innerDuplicate?.hasPrefix(#"duplicate member name "b3" at offset "#) == true, "\(innerDuplicate ?? "accepted")")
        let deepDuplicate = verdict(#"{\#(names("a", 0..<30)),"inner":{\#(names("b", 0..<10)),"deep":{\#(names("c", 0..<5)),"c4":0}}}"#)
        #expect(deepDuplicate?.hasPrefix(#"duplicate member name "c4" at offset "#) == true, "\(deepDuplicate ?? "accepted")")
    }

    @Test func namesThatDifferOnlyByUnicodeEquivalenceAreTwoMembers() {
        #expect(verdict("{\"K\":1,\"\u{212A}\":2}") == nil, "U+212A KELVIN SIGN is not K")
        #expect(verdict("{\"\u{e9}\":1,\"e\u{301}\":2}") == nil, "precomposed and decomposed é are different names")
    }

    @Test func aDuplicateAfterAnInvalidValueReportsTheEarlierProblem() {
        #expect(verdict(#"{"a":1,"a":[}"#) == "unexpected character at offset 12")
    }

    @Test func theViewFindsEscapedRegisteredAndRequiredClaimNames() throws {
        let bytes = Array(#"{"\u0065xp":5,"\u0069ss":"i\u0073s","sc\u006fpe":"x"}"#.utf8)
        try bytes.withUnsafeBufferPointer { buffer in
            let view = try RegisteredClaimsView.read(buffer, maxDepth: 16, requiredNames: ["scope", "absent"])
            #expect(view[.exp].kind == .number)
            #expect(view.number(view[.exp]) == 5)
            #expect(view.text(view[.iss])?.decoded == "iss")
            #expect(view.isPresent(requiredAt: 0))
            #expect(!view.isPresent(requiredAt: 1))
        }
    }

    @Test func rulesSeeEscapedClaimsOnTheFastPath() throws {
        let verifier = try TokenForge.verifier(ValidationOptions(requiredClaims: ["exp"], issuers: ["iss"], audiences: ["api"], clock: FixedClock(unixTime: TokenForge.now)))
        let expired = TokenForge.token(payload: #"{"\u0065xp":1,"iss":"iss","aud":"api"}"#)
        #expect(throws: JWTError(code: .expired, reason: "")) { try verifier.verify(expired) }
        let valid = TokenForge.token(payload: #"{"exp":4102444800,"iss":"\u0069ss","aud":["x","\u0061pi"]}"#)
        #expect(throws: Never.self) { try verifier.verify(valid) }
        let kelvin = TokenForge.token(payload: "{\"exp\":4102444800,\"iss\":\"iss\",\"aud\":\"\u{212A}api\"}")
        #expect(throws: JWTError(code: .audienceMismatch, reason: "")) { try verifier.verify(kelvin) }
    }

    @Test func aRuleFailureBuildsTheGeneralPathsReason() throws {
        let verifier = try TokenForge.verifier(ValidationOptions(requiredClaims: ["exp", "jti"], clock: FixedClock(unixTime: TokenForge.now)))
        let token = TokenForge.token(payload: #"{"exp":4102444800}"#)
        do {
            _ = try verifier.verify(token)
            Issue.record("a token without jti verified")
        } catch {
            #expect(error.code == .missingClaim)
            #expect(error.reason == #"required claim "jti" is missing"#)
        }
    }
}
