import BenchServerSupport
import Hummingbird
import HummingbirdAuth
import JWTKit
import Logging

// Hummingbird 2 + jwt-kit: the comparison for `resource-server` (issue 29). The same routes:
// `GET /healthz` (open) and `GET /me` (a Bearer token verified in an authenticator middleware;
// answers the verified claims as JSON).

typealias AppContext = BasicAuthRequestContext<BenchClaims>

/// Verifies the Bearer token with jwt-kit; a missing token passes on (then `requireIdentity`
/// answers 401), a bad one answers 401.
struct JWTKitAuthenticator: AuthenticatorMiddleware {
    typealias Context = AppContext
    typealias Identity = BenchClaims
    let keys: JWTKeyCollection

    func authenticate(request: Request, context: Context) async throws -> BenchClaims? {
        guard let bearer = request.headers.bearer else { return nil }
        do {
            return try await keys.verify(bearer.token, as: BenchClaims.self)
        } catch {
            throw HTTPError(.unauthorized)
        }
    }
}

extension BenchClaims: ResponseEncodable {}

let options = ServerOptions.current
let keys = try await fetchKeys(from: options.jwksURL)
let router = Router(context: AppContext.self)
router.get("healthz") { _, _ in #"{"ok":true}"# }
router.group().add(middleware: JWTKitAuthenticator(keys: keys))
    .get("me") { _, context in try context.requireIdentity() }
var logger = Logger(label: "hb-jwtkit-server")
logger.logLevel = .warning
let app = Application(
    router: router,
    configuration: .init(address: .hostname("127.0.0.1", port: options.port)),
    onServerRunning: { _ in print("listening on http://127.0.0.1:\(options.port)") },
    logger: logger)
try await app.runService()
