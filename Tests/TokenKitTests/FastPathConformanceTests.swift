import Testing
import Foundation
@testable import TokenKit
import TokenKitTestSupport

/// The fast paths (the claims view, HeaderCache, the in-place verifier) must accept exactly what
/// the full strict parser accepts and report the same errors. These tests compare them with
/// the general path on payloads chosen to hit every rule the scanner mirrors.
@Suite struct FastPathConformanceTests {
    static let payloads: [String] = [
        #"{"sub":"a","exp":4102444800}"#,
        #"{}"#,
        #" { "sub" : "a" , "exp" : 4102444800 } "#,
        #"{"sub":"a","sub":"b","exp":4102444800}"#,
        #"{"a":{"x":1,"x":2},"exp":4102444800}"#,
        #"{"a":[{"x":1},{"x":1,"y":{"z":1,"z":2}}],"exp":4102444800}"#,
        #"{"s\u0075b":"a","sub":"b","exp":4102444800}"#,
        #"{"sub":"caf\u00e9","exp":4102444800}"#,
        "{\"sub\":\"caf\u{e9}\",\"exp\":4102444800}",
        "{\"sub\":\"a\u{1}\",\"exp\":4102444800}",
        #"{"sub":"a","exp":4102444800,}"#,
        #"{"sub":"a","exp":4102444800}x"#,
        #"{"sub":"a","exp":04102444800}"#,
        #"{"sub":"a","exp":-0}"#,
        #"{"sub":"a","exp":1.}"#,
        #"{"sub":"a","exp":1e}"#,
        #"{"sub":"a","exp":4102444800.5e0}"#,
        #"{"sub":"a","exp":4.1024448E+9}"#,
        #"{"sub":"a","exp":"4102444800"}"#,
        #"{"sub":"a","exp":1e400}"#,
        #"{"sub":"a","exp":12345678901234567890123456789012345678901234567890123456789012345}"#,
        #"{"sub":"a","exp":9007199254740993}"#,
        #"{"sub":1,"exp":4102444800}"#,
        #"{"sub":"a","exp":4102444800,"aud":[]}"#,
        #"{"sub":"a","exp":4102444800,"aud":["x",1]}"#,
        #"{"sub":"a","exp":4102444800,"aud":["api", "other"]}"#,
        #"{"sub":"a","exp":4102444800,"aud":"api"}"#,
        #"{"sub":"a","exp":4102444800,"aud":{"x":1}}"#,
        #"{"sub":"a","exp":4102444800,"iss":"https://issuer"}"#,
        #"{"sub":"a","exp":4102444800,"iss":null}"#,
        #"{"sub":"a","exp":1000}"#,
        #"{"sub":"a","exp":4102444800,"nbf":4102444000}"#,
        #"{"sub":"a","exp":4102444800,"iat":4102444000}"#,
        #"{"sub":"a","exp":4102444800,"t":true,"f":false,"n":null,"l":tru}"#,
        #"{"sub":"a","exp":4102444800,"x":[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]}"#,
        #"{"sub":"a","exp":4102444800,"x":[[[[[[[[[[[[[[1]]]]]]]]]]]]]]}"#,
        #"{"sub":"a","exp":4102444800,"x":[1,]}"#,
        #"{"sub":"a","exp":4102444800,"x":[,1]}"#,
        #"{"sub":"a""exp":4102444800}"#,
        #"{"sub" "a","exp":4102444800}"#,
        #"["sub"]"#,
        #""sub""#,
        #"{"sub":"a","exp":4102444800"#,
        #"{"sub":"a\"b","exp":4102444800}"#,
        "{\"sub\":\"a\",\"exp\":4102444800,\t\"x\":\r\n1}",
        "{\"sub\":\"a\",\"exp\":4102444800,\u{0B}\"x\":1}",
        "{" + (0..<40).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + ",\"exp\":4102444800}",
        "{" + (0..<40).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + ",\"k3\":1,\"exp\":4102444800}",
    ]

    /// The general path's outcome: the reason of the error, or "ok".
    static func slowDecode(_ token: String) -> String {
        do throws(JWTError) {
            let jws = try CompactJWS(token, limits: .default, lenientSignature: true)  // decoding never reads the signature
            _ = try JWTPayloadParser.object(jws.payload, limits: .default)
            return "ok"
        } catch {
            return "\(error.code): \(error.reason)"
        }
    }

    static func fastDecode(_ token: String) -> String {
        do throws(JWTError) {
            let jwt = try UnverifiedJWT(parsing: token)
            _ = jwt.claims
            return "ok"
        } catch {
            return "\(error.code): \(error.reason)"
        }
    }

    static func token(header: String = #"{"alg":"HS256","typ":"JWT"}"#, payload: String, signature: String = "AAAA") -> String {
        Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(payload.utf8)) + "." + signature
    }

    @Test func decodeMatchesTheFullParser() {
        for payload in Self.payloads {
            let token = Self.token(payload: payload)
            #expect(Self.fastDecode(token) == Self.slowDecode(token), "payload \(payload)")
            // Twice: the second decode hits the header cache.
            #expect(Self.fastDecode(token) == Self.slowDecode(token), "payload \(payload)")
        }
    }

    /// The scanner reads strings eight bytes at a time: every special byte at every offset of
    /// strings around that width must be seen.
    @Test func specialBytesAtEveryOffsetOfAString() {
        let specials: [String] = ["\"", "\\", "\\n", "\\u0041", "\u{1}", "\u{1F}", "\u{7F}", "\u{E9}", "\u{20AC}", " "]
        for length in 0..<20 {
            for position in 0...length {
                for special in specials {
                    var text = String(repeating: "a", count: length)
                    text.insert(contentsOf: special, at: text.index(text.startIndex, offsetBy: position))
                    let payload = "{\"sub\":\"" + text + "\",\"exp\":4102444800}"
                    let token = Self.token(payload: payload)
                    #expect(Self.fastDecode(token) == Self.slowDecode(token), "payload \(payload)")
                }
            }
        }
    }

    @Test func decodedClaimsEqualTheFullParse() throws {
        for payload in Self.payloads {
            let token = Self.token(payload: payload)
            guard let jwt = try? UnverifiedJWT(parsing: token) else { continue }
            let jws = try CompactJWS(token, limits: .default)
            #expect(jwt.claims.raw == (try JWTPayloadParser.object(jws.payload, limits: .default)), "payload \(payload)")
            #expect(jwt.header == jws.header)
        }
    }

    @Test func malformedTokensMatch() {
        let good = Self.token(payload: #"{"exp":4102444800}"#)
        let variants = [
            "", ".", "..", "a.b", "a.b.c.d", "a.b.c.d.e", good + "=", good.replacingOccurrences(of: ".", with: ".="),
            "=" + good, good + ".", "e30.e30.", "eyJhbGciOiJIUzI1NiJ9.e30.", "eyJhbGciOiJIUzI1NiJ9.e31.", "eyJhbGciOiJIUzI1NiJ9.e30.AB",
            Self.token(header: #"{"alg":"HS256","alg":"HS256"}"#, payload: "{}"),
            Self.token(header: #"{"typ":"JWT"}"#, payload: "{}"),
            Self.token(header: #"{"alg":"HS256","crit":["x"]}"#, payload: "{}"),
            Self.token(header: #"{"alg":"HS256"}"#, payload: "{}", signature: "A"),
            Self.token(header: #"{"alg":"HS256"}"#, payload: "{}", signature: "AB"),
            Self.token(header: #"{"alg":"HS256"}"#, payload: "{}", signature: "AA"),
            String(repeating: "a", count: 40_000),
        ]
        for token in variants {
            #expect(Self.fastDecode(token) == Self.slowDecode(token), "token \(token.prefix(80))")
        }
    }

    /// An independent reference for strict, unpadded base64url (RFC 7515 §2, RFC 4648 §5):
    /// only the URL alphabet, no padding, and canonical (Foundation's decoder re-encodes to
    /// the same text, so non-zero trailing bits are refused).
    static func referenceBase64URLDecode(_ text: String) -> [UInt8]? {
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        guard text.utf8.allSatisfy(alphabet.contains) else { return nil }
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.utf8.count % 4) % 4)
        guard let data = Data(base64Encoded: standard) else { return nil }
        let canonical = data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        return canonical == text ? [UInt8](data) : nil
    }

    @Test func base64FastDecoderAgreesWithTheReference() throws {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=+/ .".utf8)
        let seed: UInt64 = 0x7A11_C0DE
        var generator = SplitMix64(seed: seed)
        var accepted = 0
        for _ in 0..<20_000 {
            let length = Int.random(in: 0..<12, using: &generator)
            let text = String(decoding: (0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] }, as: UTF8.self)
            let fast = try? Base64URL.decode(text)
            let reference = Self.referenceBase64URLDecode(text)
            #expect(fast == reference, "seed \(seed): \(text)")
            if reference != nil { accepted += 1 }
        }
        // The sample must exercise both answers, or the comparison proves little.
        #expect(accepted > 1_000 && accepted < 19_000, "seed \(seed): \(accepted) accepted")
        for bytes in [[UInt8](), [0], [0, 1], [0, 1, 2], [255, 254, 253, 252], Array(0...255)] {
            #expect(try Base64URL.decode(Base64URL.encode(bytes)) == bytes)
            #expect(Self.referenceBase64URLDecode(Base64URL.encode(bytes)) == bytes)
        }
        // Non-canonical trailing bits, padding and the standard alphabet are refused by both.
        for text in ["AB", "AAB", "AA==", "A+/A", "A", "QR", "QUJ"] {
            #expect(Self.referenceBase64URLDecode(text) == nil, "reference accepts \(text)")
            #expect(throws: Base64URL.DecodingFailure.self, "fast path accepts \(text)") { try Base64URL.decode(text) }
        }
    }

    /// verify: a verifier with a custom check takes the general claims path; one without,
    /// the fast path. Both must agree on every payload and option set.
    @Test func verifyMatchesTheGeneralPath() throws {
        let key = try JWTKey.hmac(secret: Array(repeating: 7, count: 32))
        let signer = try JWTSigner(key: key)
        let clock = FixedClock(unixTime: 1_800_000_000)
        let optionSets: [ValidationOptions] = [
            ValidationOptions(clock: clock),
            ValidationOptions(requiredClaims: ["exp", "sub"], issuers: ["https://issuer"], clock: clock),
            ValidationOptions(requiredClaims: [], audiences: ["api"], clock: clock),
            ValidationOptions(requiredClaims: [], subject: "a", type: "jwt", clock: clock),
            ValidationOptions(requiredClaims: ["exp", "iat"], maxAge: .seconds(60), clock: clock),
            ValidationOptions(leeway: .seconds(10), requiredClaims: ["nope"], clock: clock),
            ValidationOptions(clock: FixedClock(unixTime: 4_102_444_100)),
        ]
        for payload in Self.payloads {
            let token = try signer.signJWS(payload: Array(payload.utf8))
            for options in optionSets {
                let fast = JWTVerifier(key: key, options: options)
                var slowOptions = options
                slowOptions.customCheck = { _, _ throws(JWTError) in }
                let slow = JWTVerifier(key: key, options: slowOptions)
                func outcome(_ v: JWTVerifier) -> String {
                    do throws(JWTError) {
                        let verified = try v.verify(token)
                        return "ok \(verified.claims.raw.count)"
                    } catch { return "\(error.code): \(error.reason)" }
                }
                #expect(outcome(fast) == outcome(slow), "payload \(payload)")
                #expect(outcome(fast) == outcome(slow), "payload \(payload) (cached header)")
            }
        }
        // A bad signature is reported the same way.
        let token = try signer.sign(JWTClaims(JSONObject([("exp", .number(JSONNumber(4102444800)))])))
        let tampered = String(token.dropLast(2)) + (token.hasSuffix("AA") ? "AE" : "AA")
        let verifier = JWTVerifier(key: key)
        #expect(throws: JWTError.self) { try verifier.verify(tampered) }
        #expect(throws: JWTError.self) { try verifier.verifyJWS(tampered) }
    }

    @Test func asymmetricSignAndVerifyRoundTrip() throws {
        for alg in [JWTAlgorithm.rs256, .ps256, .es256, .es384, .es512, .eddsa] {
            let key = try JWTKey.generate(for: alg)
            let signer = try JWTSigner(key: key, algorithm: alg)
            let verifier = JWTVerifier(key: try key.publicKey(), options: ValidationOptions(algorithms: [alg]))
            for _ in 0..<3 {  // exercise the pooled contexts
                let token = try signer.sign(JWTClaims(JSONObject([("exp", .number(JSONNumber(4102444800)))])))
                #expect(try verifier.verify(token).claims.expiration() == 4102444800)
                var bytes = Array(token.utf8)
                bytes[bytes.count / 2] = bytes[bytes.count / 2] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
                #expect(throws: JWTError.self) { try verifier.verify(String(decoding: bytes, as: UTF8.self)) }
            }
        }
    }

    /// Eight tasks share one verifier (and its pooled OpenSSL contexts) for ECDSA and HMAC,
    /// and one signer: every answer must be right, and a tampered token must fail every time,
    /// so a context reused while another task holds it would show as a wrong answer.
    @Test func concurrentVerifiesShareContextsSafely() async throws {
        let key = try JWTKey.generate(for: .es256)
        let signer = try JWTSigner(key: key)
        let verifier = JWTVerifier(key: try key.publicKey(), options: ValidationOptions(algorithms: [.es256]))
        let hmacKey = try JWTKey.hmac(secret: Array(repeating: 1, count: 32))
        let hmacVerifier = JWTVerifier(key: hmacKey)
        let exp = JWTClaims(JSONObject([("exp", .number(JSONNumber(4102444800)))]))
        let token = try signer.sign(exp)
        let hmacToken = try JWTSigner(key: hmacKey).sign(exp)
        let tampered = String(hmacToken.dropLast(2)) + (hmacToken.hasSuffix("AA") ? "AE" : "AA")
        let answers = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var right = 0
                    for _ in 0..<400 {
                        if try verifier.verify(token).claims.expiration() == 4102444800 { right += 1 }
                        if try hmacVerifier.verify(hmacToken).claims.expiration() == 4102444800 { right += 1 }
                        if try verifier.verify(try signer.sign(exp)).claims.expiration() == 4102444800 { right += 1 }
                        if (try? hmacVerifier.verify(tampered)) == nil { right += 1 }
                    }
                    return right
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(answers == 8 * 400 * 4)
    }
}
