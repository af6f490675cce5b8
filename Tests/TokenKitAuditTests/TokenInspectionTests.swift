import Testing
import TokenKit
import TokenKitTestSupport

/// Differential tests: the audit's reading of a token (`TokenInspection`, the core's one JSON
/// reader and claim rules) must give exactly what the strict decoder and the typed claim
/// accessors give: the same fields when both accept, the same reason when either refuses.
@Suite("The audit's token inspection agrees with UnverifiedJWT")
struct TokenInspectionTests {
    /// What the strict decoder and the typed accessors say about `token`.
    struct Reference: Equatable {
        var algorithm = "", keyID: String?, issuer: String?, subject: String?, jwtID: String?
        var audience: [String]?, audienceIsArray = false
        var dates: [String?] = []
        var missing: [String] = []
    }

    static func reference(_ token: String, required: [String], limits: ParsingLimits) -> Result<Reference, InspectionFailure> {
        do {
            let jwt = try UnverifiedJWT(parsing: token, limits: limits)
            guard jwt.signatureIsWellFormed else { return .failure(InspectionFailure(reason: "the signature part is not canonical unpadded base64url")) }
            let claims = jwt.claims
            var reference = Reference(algorithm: jwt.header.algorithmName, keyID: jwt.header.keyID)
            reference.issuer = try claims.issuer()
            reference.subject = try claims.subject()
            reference.jwtID = try claims.jwtID()
            reference.audience = try claims.audience()
            reference.audienceIsArray = claims["aud"]?.arrayValue != nil
            for name in ["iat", "nbf", "exp"] {
                _ = try claims.numericDate(name)
                reference.dates.append(claims[name]?.numberValue?.literal)
            }
            reference.missing = required.filter { claims[$0] == nil }
            return .success(reference)
        } catch {
            return .failure(InspectionFailure(reason: error.reason))
        }
    }

    /// Inspects `token` and checks it against the reference; returns whether it was accepted.
    @discardableResult
    func check(_ token: String, required: [String] = ["scope", "iss"], limits: ParsingLimits = .default,
               sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        var scratch = InspectionScratch()
        var copy = token
        let inspected = copy.withUTF8 { utf8 in
            Result { () throws(InspectionFailure) in
                try TokenInspection.inspect(UnsafeRawBufferPointer(utf8), limits: limits, requiredClaims: required, now: TestTokens.now, scratch: &scratch)
            }
        }
        let expected = Self.reference(token, required: required, limits: limits)
        switch (inspected, expected) {
        case (.success(let got), .success(let want)):
            let read = Reference(algorithm: got.algorithm, keyID: got.keyID, issuer: got.issuer, subject: got.subject, jwtID: got.jwtID,
                                 audience: got.audience, audienceIsArray: got.audienceIsArray,
                                 dates: [got.issuedAt?.literal, got.notBefore?.literal, got.expiration?.literal], missing: got.missingClaims)
            #expect(read == want, sourceLocation: sourceLocation)
            return true
        case (.failure(let got), .failure(let want)):
            #expect(got.reason == want.reason, sourceLocation: sourceLocation)
            return false
        case (.success, .failure(let want)):
            Issue.record("inspection accepted a token the strict decoder refuses: \(want.reason)", sourceLocation: sourceLocation)
            return true
        case (.failure(let got), .success):
            Issue.record("inspection refused a token the strict decoder accepts: \(got.reason)", sourceLocation: sourceLocation)
            return false
        }
    }

    @Test func validTokensAreReadLikeTheStrictDecoder() {
        #expect(check(TestTokens.typical()))
        #expect(check(TestTokens.make(header: #"{"alg":"RS256","kid":"k","typ":"JWT","cty":"x"}"#,
                                      payload: #"{"iss":"i","sub":"s","aud":["a","b"],"jti":"j","iat":1,"nbf":2.5,"exp":3e9,"scope":"x"}"#)))
        #expect(check(TestTokens.make(payload: #" { "exp" : 1 , "realm_access" : { "roles" : [ "a" , { "x" : null } ] } , "ok" : true } "#)))
        #expect(check(TestTokens.make(payload: #"{"name":"Zoë \u00e9 😀","aud":["x"],"exp":-5}"#)), "non-ASCII values and escapes elsewhere are fine")
        #expect(check(TestTokens.make(header: #"{"alg":"none"}"#, payload: "{}", signature: "")))
        #expect(check(TestTokens.make(header: #"{"alg":"HS256","crit":["x"]}"#, payload: "{}")), "decoding does not judge crit")
        #expect(check(TestTokens.make(payload: #"{"\u0065xp":1,"iss":"a\/b","aud":["\u0061"]}"#)), "escaped names and values are read, not declined")
        #expect(check(TestTokens.make(payload: "{\"é\":1,\"scope\":\"x\"}")))
    }

    @Test(arguments: [
        TestTokens.make(payload: #"{"exp":1,"exp":2}"#),                       // duplicate
        TestTokens.make(payload: #"{"a":{"b":1,"b":2}}"#),                     // nested duplicate
        TestTokens.make(header: #"{"alg":"HS256","alg":"none"}"#, payload: "{}"),
        TestTokens.make(payload: #"{"exp":"1"}"#),
        TestTokens.make(payload: #"{"exp":1e15}"#),
        TestTokens.make(payload: #"{"aud":["a",1]}"#),
        TestTokens.make(payload: #"{"aud":[]}"#),
        TestTokens.make(payload: #"{"iss":null}"#),
        TestTokens.make(payload: #"{"a":01}"#),
        TestTokens.make(payload: #"{"a":1.}"#),
        TestTokens.make(payload: #"{"a":"\x"}"#),
        TestTokens.make(payload: #"{"a":"\ud800"}"#),
        TestTokens.make(payload: #"{"a":"\udc00\ud800"}"#),
        TestTokens.make(payload: "{\"a\":\"\u{01}\"}"),
        TestTokens.make(payload: #"{"a":tru}"#),
        TestTokens.make(payload: #"{"a":1,}"#),
        TestTokens.make(payload: #"{"a":1} x"#),
        TestTokens.make(payload: #"[]"#),
        TestTokens.make(payload: ""),
        TestTokens.make(header: #"{"typ":"JWT"}"#, payload: "{}"),
        TestTokens.make(header: #"{"alg":"HS256","typ":1}"#, payload: "{}"),
        TestTokens.make(payload: #"{"\u0065xp":1,"exp":2}"#),                    // duplicate after unescaping
        TestTokens.make(payload: #"{"iss":1}"#),
        TestTokens.make(payload: #"{"sub":{}}"#),
        TestTokens.make(payload: #"{"jti":[]}"#),
        TestTokens.make(payload: #"{"iat":"x","exp":"y"}"#),                      // first typed accessor named
        TestTokens.make(payload: "{\"é\":1,\"é\":2}"),
        TestTokens.make(payload: #"{"exp":1}"#, signature: "c2lnA"),
        TestTokens.make(payload: #"{"exp":1}"#, signature: "c2m"),             // non-canonical last char
        "a.b.c.d",
        ".e30.",
    ])
    func refusedWithTheStrictDecodersReason(token: String) {
        #expect(!check(token))
    }

    /// One scratch reused across tokens (as each audit worker does): a value remembered from
    /// the previous token is reused only when the bytes are the same.
    @Test func valuesReusedFromThePreviousTokenAreOnlyIdenticalOnes() throws {
        let payloads = [
            #"{"iss":"https://a.example","aud":["x","y"]}"#,
            #"{"iss":"https://a.example","aud":["x","z"]}"#,
            #"{"iss":"https://b.example","aud":["x","y"]}"#,
            #"{"iss":"https://\u0062.example","aud":["x"]}"#,
            #"{"iss":"https://b.exampl","aud":["x","y","z"]}"#,
            #"{"aud":"x"}"#,
            #"{"iss":"https://a.example","aud":["x","y"]}"#,
            // The same strings written differently, and different strings after the same ones.
            #"{"aud":["x","\u0079"]}"#,
            #"{"aud":[ "x","y"]}"#,
            #"{"aud":["x","y"]}"#,
            #"{"aud":["x","y",""]}"#,
            #"{"aud":["é","\u00e9"]}"#,
            #"{"aud":["é","\u00e9"]}"#,
            #"{"aud":["\u00e9","é"]}"#,
        ]
        var scratch = InspectionScratch()
        for payload in payloads {
            var token = TestTokens.make(payload: payload)
            let inspected = token.withUTF8 { utf8 in
                Result { () throws(InspectionFailure) in
                    try TokenInspection.inspect(UnsafeRawBufferPointer(utf8), limits: .default, requiredClaims: [], now: TestTokens.now, scratch: &scratch)
                }
            }
            let read = try inspected.get()
            let claims = try UnverifiedJWT(parsing: token).claims
            #expect(read.issuer == (try claims.issuer()), "\(payload)")
            #expect(read.audience == (try claims.audience()), "\(payload)")
        }
    }

    @Test func depthAndSizeLimits() {
        let deep = TestTokens.make(payload: #"{"a":[[[[1]]]]}"#)
        #expect(check(deep, limits: ParsingLimits(maxDepth: 5)))
        #expect(!check(deep, limits: ParsingLimits(maxDepth: 4)))
        #expect(!check(TestTokens.typical(), limits: ParsingLimits(maxTokenBytes: 20)))
        let many = "{" + (0..<70).map { #""c\#($0)":\#($0)"# }.joined(separator: ",") + "}"
        #expect(check(TestTokens.make(payload: many), required: ["c69", "c70"]), "70 members, one required claim missing")
        let tooMany = "{" + (0..<1001).map { #""c\#($0)":\#($0)"# }.joined(separator: ",") + "}"
        #expect(!check(TestTokens.make(payload: tooMany), limits: ParsingLimits(maxTokenBytes: 64 * 1024)), "over the lexer's 1,000-member cap")
    }

    /// Random single-byte mutations of valid payloads: inspection and the strict decoder
    /// accept the same ones with the same fields, and refuse the others for the same reason.
    @Test func randomMutationsNeverDisagree() {
        let payloads = [
            #"{"iss":"https://issuer.example","sub":"user-1","aud":["api","b"],"iat":1699999400,"nbf":1.5e9,"exp":1700003000,"jti":"x","n":{"a":[1,true,null,"é"]}}"#,
            #"{"exp":1,"aud":"a","s":"\u00e9\n","neg":-0.5e-3}"#,
        ]
        let alphabet = Array(#"{}[]",:0123456789.eE+-\u"abcdefnrt é"#.utf8) + [0x00, 0x1F, 0x80, 0xC3, 0xED, 0xF4, 0xFF]
        var rng = SplitMix64(seed: 0x5EED)
        var accepted = 0
        for round in 0..<6000 {
            var bytes = Array(payloads[round % payloads.count].utf8)
            for _ in 0...(round % 3) {
                let position = Int(rng.next() % UInt64(bytes.count))
                switch rng.next() % 3 {
                case 0: bytes[position] = alphabet[Int(rng.next() % UInt64(alphabet.count))]
                case 1: bytes.remove(at: position)
                default: bytes.insert(alphabet[Int(rng.next() % UInt64(alphabet.count))], at: position)
                }
                if bytes.isEmpty { bytes = [0x7B] }
            }
            let token = Base64URL.encode(Array(#"{"alg":"HS256"}"#.utf8)) + "." + Base64URL.encode(bytes) + ".c2ln"
            if check(token) { accepted += 1 }
        }
        #expect(accepted > 100, "some mutations stay valid")
    }
}
