import Testing
import TokenKit

/// Malformed and non-canonical encodings. Every hostile token here carries a correct MAC
/// over exactly the bytes sent (see ``TokenForge``), so the refusal can only come from the
/// encoding defect, and it must be `malformed`.
@Suite("Attack: malformed and non-canonical encodings")
struct MalformedEncodingTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let token: String
        /// Text the error's reason must contain (it names the cause), when given.
        var cause: String = ""
        var testDescription: String { name }
    }

    static let header = TestSupport.b64(#"{"alg":"HS256"}"#)
    /// `{"sub":"alice"}` is 15 bytes: its encoding has no partial group, so use a 16-byte
    /// payload whose encoding ends in a 2-character group for the canonical-bits cases.
    static let payload = TestSupport.b64(#"{"sub":"alice1"}"#)

    static let cases: [Case] = [
        Case(name: "padding '=' on the payload", token: TokenForge.signParts(header, payload + "=="), cause: "part 2 (payload) is not canonical base64url: invalid base64url character '='"),
        Case(name: "padding '=' on the header", token: TokenForge.signParts(TestSupport.b64(#"{"alg":"HS256","x":1}"#) + "=", payload)),
        Case(name: "'+' from the standard alphabet", token: TokenForge.signParts(header, String(payload.prefix(4)) + "+" + payload.dropFirst(5))),
        Case(name: "'/' from the standard alphabet", token: TokenForge.signParts(header, String(payload.prefix(4)) + "/" + payload.dropFirst(5))),
        Case(name: "a space inside the payload", token: TokenForge.signParts(header, String(payload.prefix(4)) + " " + payload.dropFirst(4))),
        Case(name: "a newline inside the header", token: TokenForge.signParts(String(header.prefix(8)) + "\n" + header.dropFirst(8), payload)),
        Case(name: "a leading space", token: " " + TokenForge.token()),
        Case(name: "a trailing newline", token: TokenForge.token() + "\n"),
        Case(name: "a trailing space after the signature", token: TokenForge.token() + " "),
        Case(name: "a non-ASCII character in the signature", token: TokenForge.token() + "\u{e9}"),
        Case(name: "a NUL byte inside the payload part", token: TokenForge.signParts(header, String(payload.prefix(4)) + "\u{0}" + payload.dropFirst(4))),
        // The payload ends in "fQ" ('}'): "fR" decodes to the same byte with an unused bit set.
        Case(name: "non-canonical last character (unused bits set)", token: TokenForge.signParts(header, String(payload.dropLast()) + "R"), cause: "non-canonical"),
        Case(name: "a 4k+1 length part", token: TokenForge.signParts(header, payload + "AAA"), cause: "length 25"),
        Case(name: "two parts", token: "\(header).\(payload)", cause: "found 2"),
        Case(name: "four parts", token: TokenForge.token() + ".AAAA", cause: "found 4"),
        Case(name: "six parts", token: TokenForge.token() + ".AA.AA.AA"),
        Case(name: "empty header", token: TokenForge.signParts("", payload), cause: "part 1 (header) is empty"),
        Case(name: "only dots", token: ".."),
        Case(name: "empty string", token: ""),
        Case(name: "invalid UTF-8 in the header JSON", token: TokenForge.token(headerBytes: Array(#"{"alg":"HS256","x":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8), payloadBytes: Array(#"{"a":1}"#.utf8))),
        Case(name: "overlong UTF-8 in the payload JSON", token: TokenForge.token(headerBytes: Array(#"{"alg":"HS256"}"#.utf8), payloadBytes: Array(#"{"a":""#.utf8) + [0xC0, 0xAF] + Array(#""}"#.utf8))),
        Case(name: "UTF-8 encoded surrogate in the payload", token: TokenForge.token(headerBytes: Array(#"{"alg":"HS256"}"#.utf8), payloadBytes: Array(#"{"a":""#.utf8) + [0xED, 0xA0, 0x80] + Array(#""}"#.utf8))),
        Case(name: "a byte order mark before the header JSON", token: TokenForge.token(headerBytes: [0xEF, 0xBB, 0xBF] + Array(#"{"alg":"HS256"}"#.utf8), payloadBytes: Array(#"{"a":1}"#.utf8))),
        Case(name: "a byte order mark before the payload JSON", token: TokenForge.token(headerBytes: Array(#"{"alg":"HS256"}"#.utf8), payloadBytes: [0xEF, 0xBB, 0xBF] + Array(#"{"a":1}"#.utf8))),
        Case(name: "trailing garbage after the header JSON", token: TokenForge.token(header: #"{"alg":"HS256"}x"#)),
        Case(name: "a second JSON object after the header", token: TokenForge.token(header: #"{"alg":"HS256"}{"alg":"none"}"#)),
        Case(name: "trailing garbage after the payload JSON", token: TokenForge.token(payload: #"{"sub":"alice"},"#), cause: "after the JSON value"),
        Case(name: "a lone high surrogate escape in the payload", token: TokenForge.token(payload: #"{"sub":"\ud800"}"#), cause: "unpaired surrogate"),
        Case(name: "a lone low surrogate escape in the header", token: TokenForge.token(header: #"{"alg":"HS256","kid":"\udc00"}"#)),
        Case(name: "a high surrogate followed by a non-surrogate", token: TokenForge.token(payload: #"{"sub":"\ud800\u0041"}"#)),
        Case(name: "an unescaped control character in a string", token: TokenForge.token(payload: "{\"sub\":\"a\u{01}b\"}")),
        Case(name: "single-quoted JSON", token: TokenForge.token(payload: "{'sub':'alice'}")),
        Case(name: "a trailing comma in the header", token: TokenForge.token(header: #"{"alg":"HS256",}"#)),
        Case(name: "a header that is an array", token: TokenForge.token(header: #"["HS256"]"#)),
        Case(name: "a header without alg", token: TokenForge.token(header: #"{"typ":"JWT"}"#), cause: "no \"alg\""),
        Case(name: "alg that is not a string", token: TokenForge.token(header: #"{"alg":["HS256"]}"#)),
        Case(name: "kid that is not a string", token: TokenForge.token(header: #"{"alg":"HS256","kid":7}"#)),
        Case(name: "a payload that is a JSON string, not an object", token: TokenForge.token(payload: #""alice""#)),
        Case(name: "a payload that is not JSON", token: TokenForge.token(payload: "hello")),
        Case(name: "NaN as a number", token: TokenForge.token(payload: #"{"exp":NaN}"#)),
        Case(name: "a leading-zero number", token: TokenForge.token(payload: #"{"exp":01}"#)),
    ]

    @Test("each malformed token is refused as malformed", arguments: cases)
    func refused(_ c: Case) throws {
        let verifier = try TokenForge.verifier()
        let error = expectJWTError(.malformed) { try verifier.verify(c.token) }
        #expect(error?.reason.hasPrefix("malformed token:") == true, "\(error?.reason ?? "")")
        if !c.cause.isEmpty { #expect(error?.reason.contains(c.cause) == true, "\(error?.reason ?? "") does not name \(c.cause)") }
    }

    @Test("an empty payload part is refused as a JWT (no JSON object) but is a valid plain JWS")
    func emptyPayload() throws {
        let token = TokenForge.signParts(Self.header, "")
        let error = expectJWTError(.malformed) { try TokenForge.verifier().verify(token) }
        #expect(error?.reason.contains("part 2 (payload)") == true)
        #expect(try TokenForge.verifier().verifyJWS(token).payload.isEmpty)
    }

    @Test("a five-part token is named as an unsupported JWE")
    func jweNamed() throws {
        let jwe = "eyJhbGciOiJSU0EtT0FFUCIsImVuYyI6IkEyNTZHQ00ifQ.OKOawDo13gRp2ojaHV7LFpZcgV7T6DVZKTyKOMTYUmKoTCVJRgckCL9kiMT03JGeipsEdY3mx_etLbbWSrFr05kLzcSr4qKAq7YN7e9jwQRb23nfa6c9d-StnImGyFDbSv04uVuxIp5Zms1gNxKKK2Da14B8S4rzVRltdYwam_lDp5XnZAYpQdb76FdIKLaVmqgfwX7XWRxv2322i-vDxRfqNzo_tETKzpVLzfiwQyeyPGLBIO56YJ7eObdv0je81860ppamavo35UgoRdbYaBcoh9QcfylQr66oc6vFWXRcZ_ZT2LawVCWTIy3brGPi6UklfCpIMfIjf7iGdXKHzg.48V1_ALb6US04U3b.5eym8TW_c8SuK0ltJ3rpYIzOeDQz7TALvtu6UG9oMo4vpzs9tX_EFShS8iB7j6jiSdiwkIr3ajwQzaBtQD_A.XFBoMYUZodetZdvTiFvSkQ"
        let error = expectJWTError(.malformed) { try TokenForge.verifier().verify(jwe) }
        #expect(error?.reason.contains("JWE") == true)
    }

    @Test("the same claims, canonically encoded, verify (control)")
    func control() throws {
        #expect(Self.payload.hasSuffix("fQ"))
        let verified = try TokenForge.verifier().verify(TokenForge.signParts(Self.header, Self.payload))
        #expect(verified.claims["sub"] == .string("alice1"))
        #expect(try TokenForge.verifier().verify(TokenForge.token()).claims["sub"] == .string("alice"))
    }

    @Test("Base64URL.decode accepts exactly the canonical form", arguments: [
        ("", true), ("AA", true), ("AAA", true), ("AAAA", true), ("AB", false), ("AAB", false), ("A", false),
        ("AA==", false), ("A+", false), ("A/", false), ("-_", false), ("-w", true), ("AA\n", false), (" AA", false),
    ])
    func base64Canonical(text: String, accepted: Bool) {
        #expect(((try? Base64URL.decode(text)) != nil) == accepted, "\(text.debugDescription)")
    }

    @Test("Base64URL round-trips every byte value and every length up to 64")
    func base64RoundTrip() throws {
        let all = (0...255).map { UInt8($0) }
        #expect(try Base64URL.decode(Base64URL.encode(all)) == all)
        for length in 0...64 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            let text = Base64URL.encode(bytes)
            #expect(!text.contains("=") && !text.contains("+") && !text.contains("/"))
            #expect(try Base64URL.decode(text) == bytes)
        }
    }
}
