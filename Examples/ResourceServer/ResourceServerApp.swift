import Foundation
import Hummingbird
import HummingbirdAuth
import Logging
import NIOCore
import TokenKit
import TokenKitRemote
import TokenKitHummingbird

/// The routes of `resource-server`: `/healthz` (open), `/me` (any valid token) and `/admin`
/// (scope `admin`).
enum ResourceServerApp {
    typealias Context = BasicAuthRequestContext<VerifiedToken>
    static let realm = "resource-server"

    static func make(
        keys: RemoteJWKS, options: ValidationOptions, port: Int, onListening: @escaping @Sendable (Int) -> Void
    ) -> some ApplicationProtocol {
        let router = Router(context: Context.self)
        router.get("healthz") { _, _ in json(health(keys.status)) }
        let protected = router.group()
            .add(middleware: JWTAuthenticator(verifier: KeySourceVerifier(source: keys, options: options), realm: realm))
        protected.group().add(middleware: RequireScopesMiddleware(realm: realm))
            .get("me") { _, context in
                let identity = try context.requireIdentity()
                return json(String(decoding: identity.jwt.payload, as: UTF8.self))
            }
        protected.group().add(middleware: RequireScopesMiddleware(["admin"], realm: realm))
            .get("admin") { _, _ in json(#"{"ok":true}"#) }
        var logger = Logger(label: "resource-server")
        logger.logLevel = .warning
        return Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: port)),
            onServerRunning: { channel in onListening(channel.localAddress?.port ?? port) },
            logger: logger)
    }

    /// `{"keys":N,"last_fetch":UNIX_SECONDS|null,"last_error":STRING|null}`.
    static func health(_ status: RemoteJWKSStatus) -> String {
        JSONValue.object(JSONObject([
            ("keys", .number(JSONNumber(Int64(status.keyCount)))),
            ("last_fetch", status.lastFetch.map { .number(JSONNumber(Int64($0.timeIntervalSince1970))) } ?? .null),
            ("last_error", status.lastError.map { .string($0) } ?? .null),
        ])).jsonText
    }

    static func json(_ text: String) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                 body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
