#if Hummingbird
import CoreMetrics
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MetricsTestKit
import Testing
import TokenKit
import TokenKitHummingbird

@Suite("Hummingbird authenticator: verification metrics")
struct VerificationMetricsTests {
    typealias Keys = JWTAuthenticatorTests.Keys
    static let results = ["ok", "invalid_token", "missing_token", "insufficient_scope", "unavailable"]
    static let reasons = ["expired", "not_yet_valid", "bad_signature", "unknown_kid", "issuer", "audience", "malformed", "algorithm", "other"]

    static func total(_ metrics: TestMetrics, _ label: String, _ name: String, _ value: String) -> Int64 {
        metrics.counterTotal(label: label, dimensions: [(name, value)])
    }

    /// An unsecured (`alg: none`) token: refused before any key is looked at.
    static func unsecuredToken() -> String {
        func encode(_ text: String) -> String {
            Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }
        return encode(#"{"alg":"none"}"#) + "." + encode(#"{"sub":"alice"}"#) + "."
    }

    @Test("every result and every failure reason is counted under its fixed label, with one duration per verification")
    func everyOutcome() async throws {
        let keys = try Keys(kid: "k1"), forger = try Keys(kid: "k1"), stranger = try Keys(kid: "nobody")
        let metrics = TestMetrics()
        let now = Date().timeIntervalSince1970
        let issuer = "https://issuer.test", audience = "api"
        func token(_ signer: Keys? = nil, exp: Double? = nil, iss: String = issuer, aud: String = audience,
                   extra: [(String, JSONValue)] = []) throws -> String {
            try (signer ?? keys).token(exp: exp ?? now + 600, [("iss", .string(iss)), ("aud", .string(aud))] + extra)
        }
        let good = try token()
        let published = JWKSet(keys: [try keys.signing.publicKey()])
        let app = withMetricsFactory(metrics) {
            JWTAuthenticatorTests.app(source: published, issuer: .exactly(issuer), audience: .exactly(audience))
        }
        var withoutExp = JSONObject([("sub", .string("alice")), ("iss", .string(issuer)), ("aud", .string(audience))])
        withoutExp["scope"] = .string("read")
        let refusals: [(String, String)] = [
            (try token(exp: now - 600), "expired"),
            (try token(extra: [("nbf", .number(JSONNumber(Int64(now) + 600)))]), "not_yet_valid"),
            (try token(forger), "bad_signature"),
            (try token(stranger), "unknown_kid"),
            (try token(iss: "https://other.test"), "issuer"),
            (try token(aud: "other"), "audience"),
            ("not.a.jwt", "malformed"),
            (Self.unsecuredToken(), "algorithm"),
            (try keys.signer.sign(JWTClaims(withoutExp)), "other"),
        ]
        try await app.test(.live) { client in
            try await client.execute(uri: "/me", method: .get, headers: JWTAuthenticatorTests.bearer(good)) { #expect($0.status == .ok) }
            try await client.execute(uri: "/me", method: .get) { #expect($0.status == .unauthorized) }
            try await client.execute(uri: "/admin", method: .get, headers: JWTAuthenticatorTests.bearer(good)) { #expect($0.status == .forbidden) }
            for (refused, reason) in refusals {
                try await client.execute(uri: "/me", method: .get, headers: JWTAuthenticatorTests.bearer(refused)) { response in
                    #expect(response.status == .unauthorized, "\(reason)")
                }
                #expect(Self.total(metrics, "tokenkit_verification_failures_total", "reason", reason) == 1, "\(reason)")
            }
        }
        #expect(Self.total(metrics, "tokenkit_verifications_total", "result", "ok") == 2)  // /me and /admin verified
        #expect(Self.total(metrics, "tokenkit_verifications_total", "result", "missing_token") == 1)
        #expect(Self.total(metrics, "tokenkit_verifications_total", "result", "insufficient_scope") == 1)
        #expect(Self.total(metrics, "tokenkit_verifications_total", "result", "invalid_token") == Int64(refusals.count))
        #expect(Self.total(metrics, "tokenkit_verifications_total", "result", "unavailable") == 0)
        // Every token that reached the verifier is timed, verified or refused.
        let timer = try metrics.expectTimer("tokenkit_verification_duration_seconds")
        #expect(timer.values.count == 2 + refusals.count)
        #expect(timer.values.allSatisfy { $0 >= 0 })
        Self.expectOnlyFixedLabels(metrics)
    }

    @Test("keys unavailable counts as unavailable; two ways of sending a token as invalid_token / malformed")
    func unavailableAndInvalidRequest() async throws {
        let keys = try Keys()
        let metrics = TestMetrics()
        let app = withMetricsFactory(metrics) { JWTAuthenticatorTests.app(source: UnreachableKeys(retryAfter: .seconds(3))) }
        let token = try keys.token()
        try await app.test(.live) { client in
            try await client.execute(uri: "/me", method: .get, headers: JWTAuthenticatorTests.bearer(token)) { #expect($0.status == .serviceUnavailable) }
            try await client.execute(uri: "/me?access_token=x", method: .get, headers: JWTAuthenticatorTests.bearer(token)) { #expect($0.status == .badRequest) }
        }
        #expect(Self.total(metrics, "tokenkit_verifications_total", "result", "unavailable") == 1)
        #expect(Self.total(metrics, "tokenkit_verifications_total", "result", "invalid_token") == 1)
        #expect(Self.total(metrics, "tokenkit_verification_failures_total", "reason", "malformed") == 1)
        Self.expectOnlyFixedLabels(metrics)
    }

    @Test("with a verified-token cache: a token's first use is a miss, later uses hits, refusals misses; without one, no cache series")
    func cacheLookups() async throws {
        let keys = try Keys(), forger = try Keys()
        let published = JWKSet(keys: [try keys.signing.publicKey()])
        let clock = ManualClock(Date())
        let good = try keys.token(), expiring = try keys.token(exp: clock.now.timeIntervalSince1970 + 60), forged = try forger.token()
        let metrics = TestMetrics()
        let app = withMetricsFactory(metrics) {
            JWTAuthenticatorTests.app(source: published, caching: VerifiedTokenCaching(capacity: 10), clock: clock)
        }
        try await app.test(.live) { client in
            for _ in 0..<3 {
                try await client.execute(uri: "/me", method: .get, headers: JWTAuthenticatorTests.bearer(good)) { #expect($0.status == .ok) }
            }
            for _ in 0..<2 {
                try await client.execute(uri: "/me", method: .get, headers: JWTAuthenticatorTests.bearer(forged)) { #expect($0.status == .unauthorized) }
            }
            try await client.execute(uri: "/me", method: .get, headers: JWTAuthenticatorTests.bearer(expiring)) { #expect($0.status == .ok) }
            clock.advance(by: .seconds(120))  // `good` (600 s) is still valid
            // Found in the cache (a hit) and refused there: its exp is checked on every use.
            try await client.execute(uri: "/me", method: .get, headers: JWTAuthenticatorTests.bearer(expiring)) { #expect($0.status == .unauthorized) }
            try await client.execute(uri: "/me", method: .get) { #expect($0.status == .unauthorized) }
        }
        #expect(Self.total(metrics, "tokenkit_verification_cache_total", "outcome", "hit") == 3)
        #expect(Self.total(metrics, "tokenkit_verification_cache_total", "outcome", "miss") == 4)
        #expect(Self.total(metrics, "tokenkit_verification_failures_total", "reason", "expired") == 1)
        Self.expectOnlyFixedLabels(metrics)

        let uncachedMetrics = TestMetrics()
        let uncached = withMetricsFactory(uncachedMetrics) { JWTAuthenticatorTests.app(source: published) }
        try await uncached.test(.live) { client in
            try await client.execute(uri: "/me", method: .get, headers: JWTAuthenticatorTests.bearer(good)) { #expect($0.status == .ok) }
        }
        #expect(!uncachedMetrics.counters.contains { $0.label == "tokenkit_verification_cache_total" })
    }

    /// Every series is one of the contract's, and every label value is a fixed one.
    static func expectOnlyFixedLabels(_ metrics: TestMetrics) {
        for counter in metrics.counters {
            switch counter.label {
            case "tokenkit_verifications_total":
                #expect(counter.dimensions.count == 1 && counter.dimensions.allSatisfy { $0.0 == "result" && results.contains($0.1) })
            case "tokenkit_verification_failures_total":
                #expect(counter.dimensions.count == 1 && counter.dimensions.allSatisfy { $0.0 == "reason" && reasons.contains($0.1) })
            case "tokenkit_verification_cache_total":
                #expect(counter.dimensions.count == 1 && counter.dimensions.allSatisfy { $0.0 == "outcome" && ["hit", "miss"].contains($0.1) })
            default:
                Issue.record("unexpected counter \(counter.label)")
            }
        }
        #expect(metrics.timers.allSatisfy { $0.label == "tokenkit_verification_duration_seconds" && $0.dimensions.isEmpty })
    }
}
#endif
