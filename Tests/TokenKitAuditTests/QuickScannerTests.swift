import Testing
import TokenKit

/// Differential tests: the fast scanner must never accept what the strict decoder refuses,
/// and must agree with it on every field it returns.
@Suite("JWTQuickScanner agrees with UnverifiedJWT")
struct QuickScannerTests {
    /// Scans `token`; when the scan succeeds, checks the strict decoder agrees field by field.
    @discardableResult
    func check(_ token: String, claimNames: [String] = ["scope", "iss"], limits: ParsingLimits = .default,
               sourceLocation: SourceLocation = #_sourceLocation) -> ScannedJWT? {
        var scratch = JWTQuickScanner.Scratch()
        var copy = token
        let scanned = copy.withUTF8 {
            JWTQuickScanner.scan(UnsafeRawBufferPointer($0), limits: limits, claimNames: claimNames.map { Array($0.utf8) }, scratch: &scratch)
        }
        guard let scanned else { return nil }
        do {
            let jwt = try UnverifiedJWT(parsing: token, limits: limits)
            let claims = jwt.claims
            #expect(scanned.algorithmName == jwt.header.algorithmName, sourceLocation: sourceLocation)
            #expect(scanned.keyID == jwt.header.keyID, sourceLocation: sourceLocation)
            #expect(scanned.issuer == (try claims.issuer()), sourceLocation: sourceLocation)
            #expect(scanned.subject == (try claims.subject()), sourceLocation: sourceLocation)
            #expect(scanned.jwtID == (try claims.jwtID()), sourceLocation: sourceLocation)
            #expect(scanned.audience == (try claims.audience()), sourceLocation: sourceLocation)
            #expect(scanned.audienceIsArray == (claims["aud"]?.arrayValue != nil), sourceLocation: sourceLocation)
            for (name, value) in [("iat", scanned.issuedAt), ("nbf", scanned.notBefore), ("exp", scanned.expiration)] {
                _ = try claims.numericDate(name)
                #expect(value?.literal == claims[name]?.numberValue?.literal, sourceLocation: sourceLocation)
            }
            for (bit, name) in claimNames.enumerated() {
                #expect((scanned.presentClaims & (1 << UInt64(bit)) != 0) == (claims[name] != nil), sourceLocation: sourceLocation)
            }
        } catch {
            Issue.record("scanner accepted a token the strict decoder refuses: \(error.reason)", sourceLocation: sourceLocation)
        }
        return scanned
    }

    @Test func typicalTokensTakeTheFastPath() {
        #expect(check(TestTokens.typical()) != nil)
        #expect(check(TestTokens.make(header: #"{"alg":"RS256","kid":"k","typ":"JWT","cty":"x"}"#,
                                      payload: #"{"iss":"i","sub":"s","aud":["a","b"],"jti":"j","iat":1,"nbf":2.5,"exp":3e9,"scope":"x"}"#)) != nil)
        #expect(check(TestTokens.make(payload: #" { "exp" : 1 , "realm_access" : { "roles" : [ "a" , { "x" : null } ] } , "ok" : true } "#)) != nil)
        #expect(check(TestTokens.make(payload: #"{"name":"Zoë \u00e9 😀","aud":["x"],"exp":-5}"#)) != nil, "non-ASCII values and escapes elsewhere are fine")
        #expect(check(TestTokens.make(header: #"{"alg":"none"}"#, payload: "{}", signature: "")) != nil)
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
        TestTokens.make(header: #"{"alg":"HS256","crit":["x"]}"#, payload: "{}"),  // left to the strict decoder
        TestTokens.make(payload: #"{"\u0065xp":1}"#),                            // escaped name: strict decoder decides
        TestTokens.make(payload: #"{"iss":"a\/b"}"#),                            // escaped returned field
        TestTokens.make(payload: "{\"é\":1,\"é\":2}"),
        TestTokens.make(payload: #"{"exp":1}"#, signature: "c2lnA"),
        TestTokens.make(payload: #"{"exp":1}"#, signature: "c2m"),             // non-canonical last char
        "a.b.c.d",
        ".e30.",
    ])
    func declined(token: String) {
        #expect(check(token) == nil)
    }

    @Test func depthAndSizeLimits() {
        let deep = TestTokens.make(payload: #"{"a":[[[[1]]]]}"#)
        #expect(check(deep, limits: ParsingLimits(maxDepth: 5)) != nil)
        #expect(check(deep, limits: ParsingLimits(maxDepth: 4)) == nil)
        #expect(check(TestTokens.typical(), limits: ParsingLimits(maxTokenBytes: 20)) == nil)
        let many = "{" + (0..<70).map { #""c\#($0)":\#($0)"# }.joined(separator: ",") + "}"
        #expect(check(TestTokens.make(payload: many)) == nil, "more than 64 members: left to the strict decoder")
    }

    /// Random single-byte mutations of valid payloads: whatever the scanner accepts, the
    /// strict decoder must accept with the same fields.
    @Test func randomMutationsNeverDisagree() {
        let payloads = [
            #"{"iss":"https://issuer.example","sub":"user-1","aud":["api","b"],"iat":1699999400,"nbf":1.5e9,"exp":1700003000,"jti":"x","n":{"a":[1,true,null,"é"]}}"#,
            #"{"exp":1,"aud":"a","s":"\u00e9\n","neg":-0.5e-3}"#,
        ]
        let alphabet = Array(#"{}[]",:0123456789.eE+-\u"abcdefnrt é"#.utf8) + [0x00, 0x1F, 0x80, 0xC3, 0xED, 0xF4, 0xFF]
        var rng = SplitMix(seed: 0x5EED)
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
            if check(token) != nil { accepted += 1 }
        }
        #expect(accepted > 100, "some mutations stay valid and take the fast path")
    }
}

/// A small deterministic random number generator for reproducible fuzzing.
struct SplitMix {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
