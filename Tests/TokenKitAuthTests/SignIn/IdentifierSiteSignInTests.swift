#if Hummingbird && Postgres
import Foundation
import Testing
import TokenKit
@testable import TokenKitAuth

extension CallbackVerdict {
    /// The code of a refusal; `nil` when the callback is accepted or ignored.
    var refusedCode: AuthError.Code? {
        if case .refuse(let error) = outcome { return error.code }
        return nil
    }
}

/// The identifiers sign-in compares go through the one exact comparison (issue 23 item 2):
/// the authorization response's `iss` (RFC 9207), the ID token's `iss`, `aud` and `azp`, the
/// discovery document's `issuer`, and the callback's parameter names. Each with inputs that
/// Swift's `String ==` takes as equal (U+212A KELVIN SIGN for "K", a decomposed "é").
@Suite("Sign-in identifiers compared byte for byte")
struct IdentifierSiteSignInTests {
    static let kelvin = "\u{212A}"
    static let issuer = "https://K.example"
    static let kelvinIssuer = "https://\u{212A}.example"

    @Test("the callback's iss (RFC 9207) must have the issuer's exact bytes")
    func callbackIssuer() {
        func judge(_ iss: String) -> AuthError.Code? {
            AuthorizationCodeSignIn.judge(.init(parameters: ["code": "c", "state": "s", "iss": iss], duplicated: []),
                                          state: "s", issuer: Self.issuer, requireIssuer: true).refusedCode
        }
        #expect(Self.kelvinIssuer == Self.issuer, "the premise")
        #expect(judge(Self.issuer) == nil)
        #expect(judge(Self.kelvinIssuer) == .responseMismatch)
        #expect(judge("https://cafe\u{301}.example") == .responseMismatch)
    }

    @Test("callback parameter names: value(of:) is exact, and two canonically equivalent names count as repeated")
    func callbackParameterNames() throws {
        let decoded = try #require(QueryDecoding.decode("code=c&state=s&K=1&%E2%84%AA=2"))
        #expect(!decoded.duplicated.isEmpty, "K and KELVIN SIGN are one dictionary key: the response is refused")
        let callback = LoopbackRedirectListener.Callback(parameters: decoded.parameters, duplicated: decoded.duplicated)
        #expect(AuthorizationCodeSignIn.judge(callback, state: "s", issuer: nil, requireIssuer: false).refusedCode == .responseMismatch)
        let single = LoopbackRedirectListener.Callback(parameters: ["\(Self.kelvin)ey": "v"], duplicated: [])
        #expect(single.value(of: "Key") == nil)
        #expect(single.value(of: "\(Self.kelvin)ey") == "v")
    }

    @Test("the callback's state is compared byte for byte: a canonically equivalent state is ignored")
    func callbackStateAndError() {
        func judge(_ parameters: [String: String]) -> CallbackVerdict.Outcome {
            AuthorizationCodeSignIn.judge(.init(parameters: parameters, duplicated: []), state: "Ks", issuer: nil, requireIssuer: false).outcome
        }
        if case .ignore = judge(["code": "c", "state": "\(Self.kelvin)s"]) {} else { Issue.record("a canonically equivalent state must not be accepted") }
        if case .accept = judge(["code": "c", "state": "Ks"]) {} else { Issue.record("the exact state is accepted") }
        let denied = AuthorizationCodeSignIn.judge(.init(parameters: ["state": "Ks", "error": "access_denied"], duplicated: []),
                                                   state: "Ks", issuer: nil, requireIssuer: false).refusedCode
        #expect(denied == .accessDenied)
    }

    /// An ES256 ID token from `issuer` for `audience` with `azp`, and the key set that verifies it.
    static func idToken(iss: String, aud: [String], azp: String?) throws -> (String, JWKSet) {
        let key = try JWTKey.generate(for: .es256, keyID: "id")
        var claims = JSONObject([
            ("iss", .string(iss)), ("sub", .string("user")), ("aud", .array(aud.map { .string($0) })),
            ("exp", .number(JSONNumber(1_800_000_600))), ("iat", .number(JSONNumber(1_800_000_000))),
        ])
        if let azp { claims["azp"] = .string(azp) }
        return (try JWTSigner(key: key).sign(JWTClaims(claims)), JWKSet(keys: [try key.publicKey()]))
    }

    @Test("ID token: iss, aud and azp are checked byte for byte")
    func idTokenIdentifiers() throws {
        let validator = IDTokenValidator(issuer: Self.issuer, clientID: "Kclient")
        let now = Date(timeIntervalSince1970: 1_800_000_100)
        func validate(iss: String = Self.issuer, aud: [String] = ["Kclient"], azp: String? = nil) throws {
            let (token, keys) = try Self.idToken(iss: iss, aud: aud, azp: azp)
            _ = try validator.validate(token, nonce: nil, keys: keys, now: now)
        }
        try validate()
        try validate(aud: ["Kclient", "other"], azp: "Kclient")
        #expect(throws: AuthError.self) { try validate(iss: Self.kelvinIssuer) }
        #expect(throws: AuthError.self) { try validate(aud: ["\(Self.kelvin)client"]) }
        #expect(throws: AuthError.self) { try validate(aud: ["Kclient", "other"], azp: "\(Self.kelvin)client") }
    }

    @Test("the discovery document's issuer must have the configured issuer's exact bytes")
    func discoveryIssuer() throws {
        func document(_ issuer: String) -> [UInt8] { Array(#"{"issuer":"\#(issuer)","jwks_uri":"https://k.example/jwks"}"#.utf8) }
        _ = try OpenIDProviderMetadata(json: document(Self.issuer), expectedIssuer: Self.issuer)
        let error = #expect(throws: AuthError.self) { try OpenIDProviderMetadata(json: document(Self.kelvinIssuer), expectedIssuer: Self.issuer) }
        #expect(error?.code == .responseMismatch)
    }
}
#endif
