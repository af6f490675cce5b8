#if Hummingbird
import ArgumentParser
import AsyncHTTPClient
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import TokenKit
import TokenKitAsyncHTTPClient
import TokenKitRemote

/// `resource-server`: an HTTP API protected by Bearer JWTs whose keys come from a remote
/// JWKS (a URL, or the issuer's OpenID discovery document). See README "Examples".
@main
struct ResourceServer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resource-server",
        abstract: "Serve /me, /admin, /healthz and /metrics, accepting Bearer JWTs verified with a remote JWKS.")

    @Option(help: "TCP port on 127.0.0.1 (0 picks a free port).")
    var port: Int

    @Option(help: "The exact issuer (iss) tokens must carry.")
    var issuer: String

    @Option(help: "The audience (aud) tokens must name.")
    var audience: String

    @Option(name: .customLong("jwks-url"), help: "The JWKS URL (https; http only for loopback).")
    var jwksURL: String?

    @Flag(help: "Find the JWKS through --issuer's /.well-known/openid-configuration.")
    var discovery = false

    @Option(help: "Least seconds between fetches triggered by unknown kids (at least 1).")
    var cooldown: Double = 30

    @Option(name: .customLong("max-stale"), help: "Seconds past freshness the last good keys are served through an outage.")
    var maxStale: Double = 6 * 3600

    @Option(name: .customLong("verified-token-cache"),
            help: "Remember up to this many verified tokens, re-checking their claims and keys on every use (0: verify every request in full).")
    var verifiedTokenCache: Int = 0

    @Option(name: .customLong("metrics-port"), help: "Serve GET /metrics on this 127.0.0.1 port instead of the API port (0 picks a free port).")
    var metricsPort: Int?

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0…65535") }
        if let metricsPort {
            guard (0...65535).contains(metricsPort) else { throw ValidationError("--metrics-port must be 0…65535") }
            guard metricsPort == 0 || metricsPort != port else { throw ValidationError("--metrics-port must differ from --port") }
        }
        guard verifiedTokenCache >= 0 else { throw ValidationError("--verified-token-cache must be 0 or more tokens") }
        guard (jwksURL != nil) != discovery else { throw ValidationError("give exactly one of --jwks-url or --discovery") }
        guard cooldown.isFinite, cooldown >= 1 else {
            throw ValidationError("--cooldown must be at least 1 second (without a cooldown, every unknown kid would be a fetch)")
        }
        guard maxStale.isFinite, maxStale >= 0 else {
            throw ValidationError("--max-stale must be a non-negative number of seconds")
        }
    }

    func run() async throws {
        LoggingSystem.bootstrap { StreamLogHandler.standardError(label: $0) }
        // The backend first: the key source and the middleware create their series from it.
        let metrics = MetricsEndpoint.bootstrap()
        let location: RemoteJWKS.Location
        if let jwksURL {
            guard let url = URL(string: jwksURL) else { throw ValidationError("--jwks-url is not a URL") }
            location = .url(url)
        } else {
            location = .discovery(issuer: issuer)
        }
        let cooldown = Duration.seconds(clamping: cooldown)
        let keys: RemoteJWKS
        do throws(AuthError) {
            keys = try RemoteJWKS(location, transport: AsyncHTTPClientTransport.shared,
                                  options: RemoteJWKSOptions(cooldown: cooldown, maxStaleness: .seconds(clamping: maxStale)),
                                  logger: Logger(label: "resource-server.jwks"))
        } catch {
            throw ValidationError(error.message)
        }
        let verifier = KeySourceVerifier(
            source: keys, issuer: .exactly(issuer), audience: .exactly(audience),
            options: ValidationOptions(leeway: .seconds(60), requiredClaims: ["exp", "iss", "aud"]),
            caching: verifiedTokenCache > 0 ? VerifiedTokenCaching(capacity: verifiedTokenCache) : nil)
        let announcer = ListeningAnnouncer()
        var apps: [any Service] = [
            ResourceServerApp.make(
                keys: keys, verifier: verifier, unavailableRetryAfter: cooldown,
                metrics: metricsPort == nil ? metrics : nil, port: port, onListening: announcer.apiListening(on:)),
        ]
        if let metricsPort {
            apps.append(ResourceServerApp.makeMetrics(keys: keys, metrics: metrics, port: metricsPort, onListening: announcer.metricsListening(on:)))
        }
        let server = PrewarmedServer(keys: keys, apps: apps)
        var logger = Logger(label: "resource-server.lifecycle")
        logger.logLevel = .warning
        try await ServiceGroup(configuration: .init(
            services: [server], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)).run()
    }
}

/// Pre-warms the key set, then runs the servers. A SIGTERM or SIGINT during the pre-warm
/// ends the process with status 0 at once (``StartupGate``); afterwards it stops the
/// servers gracefully.
struct PrewarmedServer: Service {
    let keys: RemoteJWKS
    let apps: [any Service]

    func run() async throws {
        let keys = keys
        let warmed = await StartupGate.finishesBeforeShutdown {
            do throws(JWTError) { try await keys.prewarm() } catch {
                FileHandle.standardError.write(Data("warning: \(error.reason); will retry when tokens arrive\n".utf8))
            }
        }
        guard warmed else { return }
        try await withThrowingDiscardingTaskGroup { group in
            for app in apps {
                group.addTask { try await app.run() }
            }
        }
    }
}
#endif
