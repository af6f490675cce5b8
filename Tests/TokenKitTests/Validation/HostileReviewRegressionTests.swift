import Foundation
import Testing
@testable import TokenKit
import TokenKitCrypto

/// The smaller findings of the hostile review (issue 9, item 1.5), each pinned.
@Suite("Hostile review regressions")
struct HostileReviewRegressionTests {
    /// A header nested 10 levels deep: accepted with the default limits (16), refused with 8.
    static let deepHeader = #"{"alg":"HS256","x":[[[[[[[[[1]]]]]]]]]}"#

    @Test("the shared header cache never serves a header parsed under laxer limits")
    func headerCacheKeyedByLimits() throws {
        let token = TokenForge.token(header: Self.deepHeader, payload: "{}")
        _ = try UnverifiedJWT(parsing: token)  // cached under the default limits
        expectJWTError(.malformed) { try UnverifiedJWT(parsing: token, limits: ParsingLimits(maxDepth: 8)) }
        _ = try UnverifiedJWT(parsing: token)  // and still served under the default ones
    }

    @Test("a verifier's header cache applies the verifier's own limits")
    func verifierHeaderCacheLimits() throws {
        let token = TokenForge.token(header: Self.deepHeader, payload: "{}")
        _ = try TokenForge.verifier().verify(token)
        let strict = ValidationOptions(requiredClaims: [], clock: FixedClock(unixTime: TokenForge.now), limits: ParsingLimits(maxDepth: 8))
        expectJWTError(.malformed) { try TokenForge.verifier(strict).verify(token) }
    }

    @Test("decoding ignores the signature part's encoding", arguments: ["!!!", "a", "AB=", "A+/_"])
    func decodeIgnoresSignatureEncoding(_ signature: String) throws {
        let parts = TokenForge.token(payload: #"{"sub":"alice"}"#).split(separator: ".")
        let jwt = try UnverifiedJWT(parsing: "\(parts[0]).\(parts[1]).\(signature)")
        #expect(jwt.claims["sub"]?.stringValue == "alice")
        #expect(jwt.signatureIsWellFormed == false)
        #expect(jwt.signature.isEmpty)
        // Verification still refuses it as malformed.
        expectJWTError(.malformed) { try TokenForge.verifier().verify("\(parts[0]).\(parts[1]).\(signature)") }
    }

    @Test("a well-formed signature is still decoded")
    func decodeKeepsSignature() throws {
        let jwt = try UnverifiedJWT(parsing: TokenForge.token())
        #expect(jwt.signatureIsWellFormed)
        #expect(jwt.signature.count == 32)
    }

    @Test("leeway can never be negative, whether set in init or afterwards",
          arguments: [Duration.seconds(-5), .nanoseconds(-1), .seconds(Int64.min)])
    func leewayNeverNegative(_ value: Duration) throws {
        var options = ValidationOptions(leeway: value)
        #expect(options.leeway == .zero)
        options = ValidationOptions()
        options.leeway = value
        #expect(options.leeway == .zero)
        options.leeway = .seconds(30)
        #expect(options.leeway == .seconds(30))
    }

    @Test("a negative leeway set afterwards does not make a live token expire early")
    func negativeLeewayHasNoEffect() throws {
        var options = ValidationOptions(requiredClaims: [], clock: FixedClock(unixTime: TokenForge.now))
        options.leeway = .seconds(-100)
        let token = TokenForge.token(payload: #"{"exp":\#(Int(TokenForge.now) + 10)}"#)
        #expect(try TokenForge.verifier(options).verify(token).claims["exp"] != nil)
    }

    static func nested(_ depth: Int) -> JSONValue {
        (0..<depth).reduce(JSONValue.number(JSONNumber(Int64(1)))) { inner, _ in .array([inner]) }
    }

    struct Deep: Encodable {
        let sub = "alice"
        let deep: [[[[[[[[[[[[[[[[[[[Int]]]]]]]]]]]]]]]]]]] = [[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]
    }

    @Test("the signer refuses what the default verifier would refuse: nesting")
    func signerSharesDepthLimit() throws {
        let signer = try JWTSigner(key: TokenForge.key())
        expectJWTError(.claimsCoding) { try signer.sign(Deep()) }
        expectJWTError(.claimsCoding) { try signer.sign(JWTClaims(JSONObject([("deep", Self.nested(20))]))) }
        let fits = try signer.sign(JWTClaims(JSONObject([("deep", Self.nested(15))])))
        #expect(try TokenForge.verifier().verify(fits).claims["deep"] != nil)
    }

    @Test("the signer refuses what the default verifier would refuse: size")
    func signerSharesSizeLimit() throws {
        let signer = try JWTSigner(key: TokenForge.key())
        let big = JWTClaims(JSONObject([("blob", .string(String(repeating: "a", count: 40_000)))]))
        expectJWTError(.tooLarge) { try signer.sign(big) }
        let lenient = try JWTSigner(key: TokenForge.key(), limits: ParsingLimits(maxTokenBytes: 1 << 20))
        #expect(try lenient.sign(big).utf8.count > 40_000)
    }

    @Test("a key error keeps OpenSSL's reasons and the underlying error")
    func keyErrorKeepsCause() {
        let pem = PEMDocument.encode(label: "PUBLIC KEY", der: [0x30, 0x03, 0x02, 0x01, 0x01])
        let error = expectJWTError(.invalidKey) { try JWTKey(pem: pem) }
        #expect(error?.underlyingError is CryptoError)
        #expect(error?.underlyingReasons.isEmpty == false, "\(error?.reason ?? "")")
    }
}
