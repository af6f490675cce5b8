#if Hummingbird
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TokenKit
import TokenKitHummingbird

/// A key source that holds no keys and cannot load any (an issuer's JWKS that is down),
/// failing as a remote source does: with its internal URL in the reason.
struct UnreachableKeys: JWTKeySource {
    static let internalURL = "http://jwks.internal.example:8443/keys"
    let retryAfter: Duration?

    func currentKeys(for request: JWTKeyRequest) -> JWKSet? { nil }

    func loadKeys(for request: JWTKeyRequest) async throws(JWTError) -> JWKSet {
        throw JWTError(code: .keysUnavailable, reason: "no usable keys from the remote JWKS: JWKS request to \(Self.internalURL) timed out",
                       retryAfter: retryAfter)
    }
}

@Suite("Hummingbird authenticator: keys unavailable is 503, not 401")
struct KeysUnavailableTests {
    typealias Keys = JWTAuthenticatorTests.Keys

    @Test("a well-formed token while no keys can be had: 503, Retry-After from the source, temporarily_unavailable, no challenge, no host")
    func unavailable() async throws {
        let keys = try Keys()
        let token = try keys.token()
        try await JWTAuthenticatorTests.app(source: UnreachableKeys(retryAfter: .milliseconds(6_200))).test(.live) { client in
            try await client.execute(uri: "/me", method: .get, headers: JWTAuthenticatorTests.bearer(token)) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(response.headers[.retryAfter] == "7")
                #expect(response.headers[.wwwAuthenticate] == nil, "a 503 is no challenge: clients must not refresh")
                let body = String(buffer: response.body)
                let object = try JSONValue(parsing: body).objectValue
                #expect(object?["error"]?.stringValue == "temporarily_unavailable")
                #expect(object?["error_description"]?.stringValue?.isEmpty == false)
                for leak in ["jwks.internal", "8443", "http://", token] { #expect(!body.contains(leak), "\(leak) in \(body)") }
            }
        }
    }

    @Test("without a hint from the source, Retry-After is the authenticator's unavailableRetryAfter (30 s by default)")
    func defaultRetryAfter() async throws {
        let keys = try Keys()
        try await JWTAuthenticatorTests.app(source: UnreachableKeys(retryAfter: nil)).test(.live) { client in
            try await client.execute(uri: "/me", method: .get, headers: JWTAuthenticatorTests.bearer(try keys.token())) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(response.headers[.retryAfter] == "30")
            }
        }
    }

    @Test("a token that is not even a JWS, or no token, is still 401 while keys are unavailable")
    func notWellFormed() async throws {
        try await JWTAuthenticatorTests.app(source: UnreachableKeys(retryAfter: .seconds(5))).test(.live) { client in
            try await client.execute(uri: "/me", method: .get, headers: JWTAuthenticatorTests.bearer("not-a-jwt")) { response in
                #expect(response.status == .unauthorized)
                #expect(String(buffer: response.body).contains(#""error":"invalid_token""#))
            }
            try await client.execute(uri: "/me", method: .get) { response in
                #expect(response.status == .unauthorized)
            }
        }
    }

    @Test("an unknown kid while keys are held stays 401 invalid_token")
    func unknownKidWithKeys() async throws {
        let keys = try Keys(kid: "k1"), stranger = try Keys(kid: "nobody")
        try await JWTAuthenticatorTests.app(source: JWKSet(keys: [try keys.signing.publicKey()])).test(.live) { client in
            try await client.execute(uri: "/me", method: .get, headers: JWTAuthenticatorTests.bearer(try stranger.token())) { response in
                #expect(response.status == .unauthorized)
                #expect(response.headers[.wwwAuthenticate]?.contains(#"error="invalid_token""#) == true)
                #expect(response.headers[.retryAfter] == nil)
            }
        }
    }

    @Test("BearerError.temporarilyUnavailable rounds Retry-After up to whole seconds, at least 1")
    func retryAfterRounding() {
        #expect(BearerError.temporarilyUnavailable(retryAfter: .zero, realm: "r").retryAfterSeconds == 1)
        #expect(BearerError.temporarilyUnavailable(retryAfter: .milliseconds(1), realm: "r").retryAfterSeconds == 1)
        #expect(BearerError.temporarilyUnavailable(retryAfter: .seconds(2), realm: "r").retryAfterSeconds == 2)
        #expect(BearerError.temporarilyUnavailable(retryAfter: .seconds(-5), realm: "r").retryAfterSeconds == 1)
        let error = BearerError.temporarilyUnavailable(retryAfter: .seconds(3), realm: "r")
        #expect(error.status == .serviceUnavailable && !error.hasChallenge)
    }
}
#endif
