import Hummingbird
import HummingbirdAuth
import TokenKit
import TokenKitHummingbird

/// The Hummingbird trait's product, as README's service example wires it (the router is
/// built, not served).
enum TraitCheck {
    static func run() async throws -> String {
        let keys = JWKSet(keys: [try JWTKey.generate(for: .es256).publicKey()])
        let verifier = KeySourceVerifier(source: keys, issuer: .exactly("https://id.example"), audience: .exactly("api"))
        let router = Router(context: BasicAuthRequestContext<VerifiedToken>.self)
        router.group("api")
            .add(middleware: JWTAuthenticator(verifier: verifier, realm: "api"))
            .add(middleware: RequireScopesMiddleware(["read"], realm: "api"))
            .get("me") { _, context in try context.requireIdentity().claims.subject() ?? "" }
        return "trait Hummingbird: router with \(type(of: router))"
    }
}
