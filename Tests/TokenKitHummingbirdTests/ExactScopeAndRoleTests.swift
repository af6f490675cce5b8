#if Hummingbird
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdAuth
import HummingbirdTesting
import Testing
import TokenKit
import TokenKitHummingbird

/// The Hummingbird scope and role checks compare byte for byte (issue 23 item 2): a scope or
/// role spelled with U+212A KELVIN SIGN, or with a decomposed "é", never satisfies a route
/// that requires the "K" or precomposed spelling — in ``RequireScopesMiddleware`` and in
/// hummingbird-auth's `RolePolicy` over ``VerifiedToken/roles``.
@Suite("Hummingbird: scopes and roles compared byte for byte")
struct ExactScopeAndRoleTests {
    typealias Context = JWTAuthenticatorTests.Context
    static let kelvin = "\u{212A}"

    /// `/scoped` needs scope `Kread`, `/role` needs role `Kadmin` (RequireScopesMiddleware),
    /// `/policy` needs role `café` with a precomposed é (RolePolicy).
    static func app(_ keys: JWTAuthenticatorTests.Keys) throws -> some ApplicationProtocol {
        let router = Router(context: Context.self)
        let realm = JWTAuthenticatorTests.realm
        let protected = router.group().add(middleware: JWTAuthenticator(
            verifier: KeySourceVerifier(source: JWKSet(keys: [try keys.signing.publicKey()]), issuer: .anyIssuer, audience: .anyAudience), realm: realm))
        protected.group().add(middleware: RequireScopesMiddleware(["Kread"], realm: realm)).get("scoped") { _, _ in "ok" }
        protected.group().add(middleware: RequireScopesMiddleware(roles: ["Kadmin"], realm: realm)).get("role") { _, _ in "ok" }
        protected.group().add(middleware: AuthorizationPolicyMiddleware(RolePolicy<VerifiedToken>("caf\u{E9}"), context: Context.self))
            .get("policy") { _, _ in "ok" }
        return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    }

    static func status(_ client: some TestClientProtocol, _ uri: String, _ token: String) async throws -> HTTPResponse.Status {
        try await client.execute(uri: uri, method: .get, headers: JWTAuthenticatorTests.bearer(token)) { $0.status }
    }

    @Test("scope and role checks: the canonically equivalent spelling is refused (403), the exact one passes")
    func routes() async throws {
        let keys = try JWTAuthenticatorTests.Keys()
        let exact = try keys.token([("scope", .string("Kread other")), ("roles", .array([.string("Kadmin"), .string("caf\u{E9}")]))])
        let equivalent = try keys.token([
            ("scope", .string("\(Self.kelvin)read other")),
            ("roles", .array([.string("\(Self.kelvin)admin"), .string("cafe\u{301}")])),
        ])
        try await Self.app(keys).test(.live) { client in
            for uri in ["/scoped", "/role", "/policy"] {
                let accepted = try await Self.status(client, uri, exact)
                let refused = try await Self.status(client, uri, equivalent)
                #expect(accepted == .ok, "\(uri)")
                #expect(refused == .forbidden, "\(uri)")
            }
        }
    }

    @Test("VerifiedToken keeps both spellings as distinct scopes and roles, and contains only the exact one")
    func identity() throws {
        let keys = try JWTAuthenticatorTests.Keys()
        let token = try keys.token([("scp", .array([.string("Kread"), .string("\(Self.kelvin)read")])), ("roles", .string("cafe\u{301}"))])
        let verified = VerifiedToken(try JWTVerifier(key: keys.signing.publicKey()).verify(token))
        #expect(verified.scopes.count == 2)
        #expect(verified.hasScopes(["Kread"]) && verified.hasScopes(["\(Self.kelvin)read"]))
        #expect(!verified.roles.contains("caf\u{E9}") && verified.roles.contains("cafe\u{301}"))
    }
}
#endif
