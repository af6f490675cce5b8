#if Hummingbird
import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdAuth
import HummingbirdTesting
import NIOCore
import Testing
import TokenKit
import TokenKitAsyncHTTPClient
import TokenKitAuth
import TokenKitHummingbird

@Suite("README service examples")
struct ReadmeServiceTests {
    /// The README's issuer, served live; returns its app.
    static func issuerApp() throws -> some ApplicationProtocol {
        // --- README lines: an issuer publishing its JWKS ---
        let keys = try SigningKeySet(current: JWTKey.generate(for: .es256))
        let router = Router()
        router.get(".well-known/jwks.json") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/jwk-set+json"],
                     body: .init(byteBuffer: ByteBuffer(string: try keys.publicDocument())))
        }
        router.post("token") { _, _ in
            let exp = JSONNumber(Int64(Date().timeIntervalSince1970) + 300)
            return try keys.sign(JWTClaims(JSONObject([("iss", .string("https://id.example.com")), ("aud", .string("api")),
                                                       ("sub", .string("svc")), ("scope", .string("read")), ("exp", .number(exp))])))
        }
        // --- end of README lines ---
        return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    }

    @Test("the README's protected service accepts the README issuer's tokens, fetched over HTTP")
    func serviceAndIssuer() async throws {
        try await Self.issuerApp().test(.live) { issuer in
            let token = try await issuer.execute(uri: "/token", method: .post) { String(buffer: $0.body) }
            let jwksURL = URL(string: "http://127.0.0.1:\(issuer.port ?? 0)/.well-known/jwks.json")!

            // --- README lines: a Hummingbird service protected by a remote JWKS ---
            let keys = try RemoteJWKS(.url(jwksURL), transport: AsyncHTTPClientTransport.shared)
            let verifier = KeySourceVerifier(source: keys, issuer: .exactly("https://id.example.com"), audience: .exactly("api"))
            let router = Router(context: BasicAuthRequestContext<VerifiedToken>.self)
            router.get("healthz") { _, _ in "ok" }
            router.group("api")
                .add(middleware: JWTAuthenticator(verifier: verifier, realm: "api"))
                .add(middleware: RequireScopesMiddleware(["read"], realm: "api"))
                .get("me") { _, context in try context.requireIdentity().claims.subject() ?? "" }
            // --- end of README lines ---

            let service = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
            try await service.test(.live) { client in
                try await client.execute(uri: "/api/me", method: .get, headers: [.authorization: "Bearer \(token)"]) { response in
                    #expect(response.status == .ok)
                    #expect(String(buffer: response.body) == "svc")
                }
                try await client.execute(uri: "/api/me", method: .get) { response in
                    #expect(response.status == .unauthorized)
                }
            }
        }
    }
}
#endif
