#if Hummingbird
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TokenKit
import TokenKitTestSupport

/// `resource-server` while its issuer's JWKS cannot be had: 503 with Retry-After (never 401,
/// which would make every client refresh), /healthz 503, recovery once the JWKS is back.
@Suite("resource-server example: keys unavailable")
struct ResourceServerKeysUnavailableTests {
    typealias Example = ResourceServerExampleTests

    @Test("no key set yet: a well-formed token gets 503 temporarily_unavailable with Retry-After; /healthz is 503; nothing names the JWKS host or port")
    func outage() async throws {
        let key = try JWTKey.generate(for: .es256, keyID: "k1"), stranger = try JWTKey.generate(for: .es256, keyID: "nobody")
        let signer = try JWTSigner(key: key)
        try await Example.withJWKSServer(try JWKSet.publicDocument([key])) { jwksPort, counter in
            await counter.fail(with: 500)
            let (child, port) = try await Example.Child.serving(jwksPort: jwksPort, ["--cooldown", "1", "--max-stale", "60"])
            defer { _ = child.stop() }
            #expect(port > 0)

            let health = try await Example.get(port, "/healthz")
            #expect(health.status == 503)
            let healthJSON = try JSONValue(parsing: health.body).objectValue
            #expect(healthJSON?["keys"]?.numberValue?.int64Value == 0)
            #expect(healthJSON?["last_error"]?.stringValue == "invalid-response")

            let token = try Example.token(signer)
            let refused = try await Example.get(port, "/me", token: token)
            #expect(refused.status == 503)
            #expect(refused.challenge == nil)
            #expect(Int(refused.retryAfter ?? "") ?? 0 >= 1, "Retry-After: \(refused.retryAfter ?? "none")")
            let body = try JSONValue(parsing: refused.body).objectValue
            #expect(body?["error"]?.stringValue == "temporarily_unavailable")
            for answer in [health, refused] {
                for leak in ["127.0.0.1", String(jwksPort), "/jwks", token] {
                    #expect(!answer.body.contains(leak), "\(leak) in \(answer.body)")
                }
            }
            // A token that is not a JWS is still 401: only a well-formed token waits for keys.
            #expect(try await Example.get(port, "/me", token: "not-a-jwt").status == 401)

            // The issuer is back: after the cooldown the next token fetches and verifies.
            await counter.fail(with: nil)
            try await Task.sleep(for: .milliseconds(1100))
            #expect(try await Example.get(port, "/me", token: token).status == 200)
            #expect(try await Example.get(port, "/healthz").status == 200)

            // An unknown kid while the key set is fresh stays 401 invalid_token.
            let unknown = try await Example.get(port, "/me", token: try Example.token(try JWTSigner(key: stranger)))
            #expect(unknown.status == 401)
            #expect(unknown.challenge?.contains(#"error="invalid_token""#) == true)
            #expect(child.stop() == 0)
        }
    }
}
#endif
