#if Hummingbird
import Foundation
import Hummingbird
import HummingbirdAuth
import Logging
import NIOCore
import TokenKit
import TokenKitRemote
import TokenKitHummingbird

/// The routes of `resource-server`: `/healthz` (open), `/me` (any valid token), `/admin`
/// (scope `admin`) and, unless it has a port of its own, `/metrics` (open).
enum ResourceServerApp {
    typealias Context = BasicAuthRequestContext<VerifiedToken>
    static let realm = "resource-server"
    /// A connection that has not sent a complete request head this long after it opened (or
    /// after its last response) is closed: half-sent requests cannot pile up. Hummingbird's
    /// idle timeout counts only whole HTTP parts as activity, so bytes dribbled into an
    /// unfinished head do not keep a connection open.
    static let headerTimeout: TimeAmount = .seconds(10)

    /// The API application on `port`.
    static func make(
        keys: RemoteJWKS, verifier: KeySourceVerifier, unavailableRetryAfter: Duration, metrics: MetricsEndpoint?, port: Int,
        onListening: @escaping @Sendable (Int) -> Void
    ) -> some ApplicationProtocol {
        let router = Router(context: Context.self)
        router.get("healthz") { _, _ in health(keys.status) }
        metrics?.addRoute(to: router, keys: keys)
        let protected = router.group()
            .add(middleware: JWTAuthenticator(verifier: verifier, realm: realm, unavailableRetryAfter: unavailableRetryAfter))
        protected.group().add(middleware: RequireScopesMiddleware(realm: realm))
            .get("me") { _, context in
                let identity = try context.requireIdentity()
                return json(String(decoding: identity.jwt.payload, as: UTF8.self))
            }
        protected.group().add(middleware: RequireScopesMiddleware(["admin"], realm: realm))
            .get("admin") { _, _ in json(#"{"ok":true}"#) }
        return application(router, port: port, onListening: onListening)
    }

    /// The metrics-only application of `--metrics-port`.
    static func makeMetrics(
        keys: RemoteJWKS, metrics: MetricsEndpoint, port: Int, onListening: @escaping @Sendable (Int) -> Void
    ) -> some ApplicationProtocol {
        let router = Router()
        metrics.addRoute(to: router, keys: keys)
        return application(router, port: port, onListening: onListening)
    }

    private static func application<Responder: HTTPResponderBuilder>(
        _ router: Responder, port: Int, onListening: @escaping @Sendable (Int) -> Void
    ) -> some ApplicationProtocol where Responder.Responder.Context: InitializableFromSource<ApplicationRequestContextSource> {
        var logger = Logger(label: "resource-server")
        logger.logLevel = .warning
        return Application(
            router: router,
            server: .http1(configuration: .init(idleTimeout: headerTimeout)),
            configuration: .init(address: .hostname("127.0.0.1", port: port)),
            onServerRunning: { channel in onListening(channel.localAddress?.port ?? port) },
            logger: logger)
    }

    /// `{"keys":N,"last_fetch":UNIX_SECONDS|null,"last_error":CODE|null}`, `200` while a
    /// usable key set is held and `503` otherwise. `last_error` is the kind of the last
    /// failure (e.g. `network`, `invalid-response`), never its text, which can name the
    /// JWKS host.
    static func health(_ status: RemoteJWKSStatus) -> Response {
        let body = JSONValue.object(JSONObject([
            ("keys", .number(JSONNumber(Int64(status.keyCount)))),
            ("last_fetch", status.lastFetch.map { .number(JSONNumber(Int64($0.timeIntervalSince1970))) } ?? .null),
            ("last_error", status.lastErrorCode.map { .string($0.rawValue) } ?? .null),
        ])).jsonText
        return json(body, status: status.keyCount > 0 ? .ok : .serviceUnavailable)
    }

    static func json(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                 body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
#endif
