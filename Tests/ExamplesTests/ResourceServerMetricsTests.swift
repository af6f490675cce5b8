#if Hummingbird
import Foundation
import Testing
import TokenKit
import TokenKitTestSupport

/// `resource-server`'s `/metrics` (Prometheus text format) after real requests.
@Suite("resource-server example: /metrics")
struct ResourceServerMetricsTests {
    typealias Example = ResourceServerExampleTests

    /// The value of the sample `series` (name and labels exactly as written) in `text`.
    static func sample(_ series: String, in text: String) -> Double? {
        for line in text.split(separator: "\n") where line.hasPrefix(series + " ") {
            return Double(line.dropFirst(series.count + 1))
        }
        return nil
    }

    @Test("after real requests, /metrics shows every series with the outcomes of those requests, and no token or URL")
    func afterRequests() async throws {
        let key = try JWTKey.generate(for: .es256, keyID: "k1")
        let signer = try JWTSigner(key: key)
        try await Example.withJWKSServer(try JWKSet.publicDocument([key])) { jwksPort, _ in
            let (child, port) = try await Example.Child.serving(jwksPort: jwksPort)
            defer { _ = child.stop() }
            let good = try Example.token(signer), expired = try Example.token(signer, exp: Int64(Date().timeIntervalSince1970) - 600)
            #expect(try await Example.get(port, "/me", token: good).status == 200)
            #expect(try await Example.get(port, "/me", token: expired).status == 401)
            #expect(try await Example.get(port, "/me", token: try Example.token(signer, aud: "other")).status == 401)
            #expect(try await Example.get(port, "/me").status == 401)
            #expect(try await Example.get(port, "/admin", token: good).status == 403)

            let page = try await Example.get(port, "/metrics")
            #expect(page.status == 200)
            let text = page.body
            let expected: [(String, Double)] = [
                (#"tokenkit_verifications_total{result="ok"}"#, 2),
                (#"tokenkit_verifications_total{result="invalid_token"}"#, 2),
                (#"tokenkit_verifications_total{result="missing_token"}"#, 1),
                (#"tokenkit_verifications_total{result="insufficient_scope"}"#, 1),
                (#"tokenkit_verifications_total{result="unavailable"}"#, 0),
                (#"tokenkit_verification_failures_total{reason="expired"}"#, 1),
                (#"tokenkit_verification_failures_total{reason="audience"}"#, 1),
                (#"tokenkit_verification_duration_seconds_count"#, 4),
                (#"tokenkit_jwks_fetches_total{outcome="ok"}"#, 1),
                (#"tokenkit_jwks_fetches_total{outcome="error"}"#, 0),
                (#"tokenkit_jwks_keys"#, 1),
            ]
            for (series, value) in expected {
                #expect(Self.sample(series, in: text) == value, "\(series) in:\n\(text)")
            }
            #expect(Self.sample("tokenkit_jwks_age_seconds", in: text).map { $0 >= 0 } == true)
            #expect(text.contains("# TYPE tokenkit_verification_duration_seconds histogram"))
            for leak in [good, expired, "127.0.0.1", Example.issuer, "alice"] { #expect(!text.contains(leak), "\(leak)") }
            #expect(!text.contains("tokenkit_verification_cache_total"), "no cache, no cache series")
        }
    }

    @Test("with --verified-token-cache, /metrics counts each token's cache hit or miss")
    func cacheSeries() async throws {
        let key = try JWTKey.generate(for: .es256, keyID: "k1")
        let signer = try JWTSigner(key: key)
        try await Example.withJWKSServer(try JWKSet.publicDocument([key])) { jwksPort, _ in
            let (child, port) = try await Example.Child.serving(jwksPort: jwksPort, ["--verified-token-cache", "10"])
            defer { _ = child.stop() }
            let good = try Example.token(signer), expired = try Example.token(signer, exp: Int64(Date().timeIntervalSince1970) - 600)
            #expect(try await Example.get(port, "/me", token: good).status == 200)  // miss
            #expect(try await Example.get(port, "/me", token: good).status == 200)  // hit
            #expect(try await Example.get(port, "/admin", token: good).status == 403)  // hit, then the scope
            #expect(try await Example.get(port, "/me", token: expired).status == 401)  // miss (never cached)
            let text = try await Example.get(port, "/metrics").body
            #expect(Self.sample(#"tokenkit_verification_cache_total{outcome="hit"}"#, in: text) == 2, "\(text)")
            #expect(Self.sample(#"tokenkit_verification_cache_total{outcome="miss"}"#, in: text) == 2, "\(text)")
            #expect(Self.sample(#"tokenkit_verifications_total{result="ok"}"#, in: text) == 3)
        }
    }

    @Test("--metrics-port serves /metrics on a second port, announced after the listening line; the API port has none")
    func secondPort() async throws {
        let key = try JWTKey.generate(for: .es256, keyID: "k1")
        try await Example.withJWKSServer(try JWKSet.publicDocument([key])) { jwksPort, _ in
            let child = try Example.Child(arguments: Example.Child.arguments(jwksPort: jwksPort, ["--metrics-port", "0"]))
            defer { _ = child.stop() }
            let lines = try await child.running.waitForStdout(timeout: .seconds(30)) { $0.split(separator: "\n").count >= 2 }
                .split(separator: "\n").map(String.init)
            let port = Example.port(ofListeningLine: lines[0])
            #expect(port > 0, "\(lines)")
            let prefix = "metrics on http://127.0.0.1:"
            #expect(lines[1].hasPrefix(prefix) && lines[1].hasSuffix("/metrics"), "\(lines)")
            let metricsPort = Int(lines[1].dropFirst(prefix.count).dropLast("/metrics".count)) ?? 0
            #expect(metricsPort > 0 && metricsPort != port)
            #expect(try await Example.get(port, "/me").status == 401)
            let page = try await Example.get(metricsPort, "/metrics")
            #expect(page.status == 200)
            #expect(Self.sample(#"tokenkit_verifications_total{result="missing_token"}"#, in: page.body) == 1)
            #expect(try await Example.get(port, "/metrics").status == 404)
            #expect(child.stop() == 0)
        }
    }
}
#endif
