#if Hummingbird
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdAuth
import HummingbirdTesting
import NIOCore
import Testing
import TokenKit
import TokenKitHummingbird

/// A service with its own error body format renders `BearerError` with
/// `response(body:contentType:)`: its body, the library's status and headers.
@Suite("Hummingbird Bearer refusals rendered in a service's own format")
struct RefusalRenderingTests {
    typealias Context = BasicAuthRequestContext<VerifiedToken>
    static let realm = "family"

    /// Renders every ``BearerError`` as `{"message":…,"statusCode":N}`, the way the
    /// reference apps publish errors; a role refusal names the role.
    struct MessageBodyMiddleware<Context: RequestContext>: RouterMiddleware {
        func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
            do {
                return try await next(request, context)
            } catch let refusal as BearerError {
                let message = refusal.requiredRoles.isEmpty
                    ? refusal.publicDescription
                    : "this route needs a \(refusal.requiredRoles.joined(separator: " and ")) account"
                let body = JSONValue.object(JSONObject([
                    ("message", .string(message)), ("statusCode", .number(JSONNumber(Int64(refusal.status.code)))),
                ])).jsonText
                return refusal.response(body: body)
            }
        }
    }

    /// `/parent` needs the `parent` role (read from the `role` claim); `/read` the scope `read`.
    static func app(keys: JWKSet) -> some ApplicationProtocol {
        let router = Router(context: Context.self)
        router.middlewares.add(MessageBodyMiddleware<Context>())
        let protected = router.group()
            .add(middleware: JWTAuthenticator(verifier: KeySourceVerifier(source: keys, issuer: .anyIssuer, audience: .anyAudience), realm: realm, rolesClaim: "role"))
        protected.group().add(middleware: RequireScopesMiddleware(roles: ["parent"], realm: realm))
            .get("parent") { _, _ in "ok" }
        protected.group().add(middleware: RequireScopesMiddleware(["read"], realm: realm))
            .get("read") { _, _ in "ok" }
        return Application(router: router)
    }

    static func token(_ signer: JWTSigner, _ claims: [(String, JSONValue)]) throws -> String {
        var object = JSONObject([("sub", .string("u1")), ("exp", .number(JSONNumber(Int64(Date().timeIntervalSince1970 + 600))))])
        for (name, value) in claims { object[name] = value }
        return try signer.sign(JWTClaims(object))
    }

    @Test("missing, rejected and insufficient tokens keep the status, challenge and no-store; the body is the service's")
    func ownBodyFormat() async throws {
        let key = try JWTKey.generate(for: .es256, keyID: "k1")
        let signer = try JWTSigner(key: key)
        let app = Self.app(keys: JWKSet(keys: [try key.publicKey()]))
        let child = try Self.token(signer, [("role", .string("child"))])
        let parent = try Self.token(signer, [("role", .string("parent"))])
        try await app.test(.router) { client in
            try await client.execute(uri: "/parent", method: .get) { response in
                #expect(response.status == .unauthorized)
                #expect(String(buffer: response.body) == #"{"message":"a Bearer token is required","statusCode":401}"#)
                #expect(response.headers[.wwwAuthenticate] == #"Bearer realm="family""#)
                #expect(response.headers[.cacheControl] == "no-store")
                #expect(response.headers[.contentType] == "application/json")
            }
            try await client.execute(uri: "/parent", method: .get, headers: [.authorization: "Bearer \(child)x"]) { response in
                #expect(response.status == .unauthorized)
                let body = String(buffer: response.body)
                #expect(body.hasPrefix(#"{"message":""#) && body.hasSuffix(#"","statusCode":401}"#), "\(body)")
                #expect(!body.contains(child))
                #expect(response.headers[.wwwAuthenticate]?.hasPrefix(#"Bearer realm="family", error="invalid_token", error_description=""#) == true)
            }
            try await client.execute(uri: "/parent", method: .get, headers: [.authorization: "Bearer \(child)"]) { response in
                #expect(response.status == .forbidden)
                #expect(String(buffer: response.body) == #"{"message":"this route needs a parent account","statusCode":403}"#)
                #expect(response.headers[.wwwAuthenticate]
                    == #"Bearer realm="family", error="insufficient_scope", error_description="the token lacks the required scope: role:parent", scope="role:parent""#)
            }
            try await client.execute(uri: "/read", method: .get, headers: [.authorization: "Bearer \(parent)"]) { response in
                #expect(response.status == .forbidden)
                #expect(String(buffer: response.body) == #"{"message":"the token lacks the required scope: read","statusCode":403}"#)
            }
            try await client.execute(uri: "/parent", method: .get, headers: [.authorization: "Bearer \(parent)"]) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == "ok")
            }
        }
    }

    @Test("a refusal names the scopes and roles it needs apart, and in the challenge's scope together")
    func refusalDetails() {
        let both = BearerError.insufficientScope(scopes: ["read", "write"], roles: ["parent"], realm: Self.realm)
        #expect(both.status == .forbidden)
        #expect(both.requiredScopes == ["read", "write"] && both.requiredRoles == ["parent"])
        #expect(both.scope == "read write role:parent")
        let scopesOnly = BearerError.insufficientScope(required: ["admin"], realm: Self.realm)
        #expect(scopesOnly.requiredScopes == ["admin"] && scopesOnly.requiredRoles.isEmpty && scopesOnly.scope == "admin")
        let missing = BearerError.missingToken(realm: Self.realm)
        #expect(missing.requiredScopes.isEmpty && missing.requiredRoles.isEmpty && missing.scope == nil)
    }

    @Test("publicDescription is the sent description: quotes, backslashes and non-ASCII become ?, at most 200 characters")
    func publicDescriptionIsCleaned() {
        let refusal = BearerError.invalidToken("bad \"kid\" \\ caf\u{E9}\n" + String(repeating: "a", count: 300), realm: Self.realm)
        #expect(refusal.publicDescription.hasPrefix("bad ?kid? ? caf??"))
        #expect(refusal.publicDescription.count == 200)
        #expect(refusal.challenge.contains("error_description=\"\(refusal.publicDescription)\""))
    }
}
#endif
