import ArgumentParser
import AsyncHTTPClient
import Foundation
import Hummingbird
import Logging
import TokenKit
import TokenKitAsyncHTTPClient
import TokenKitRemote

/// `resource-server`: an HTTP API protected by Bearer JWTs whose keys come from a remote
/// JWKS (a URL, or the issuer's OpenID discovery document). See README "Examples".
@main
struct ResourceServer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resource-server",
        abstract: "Serve /me, /admin and /healthz, accepting Bearer JWTs verified with a remote JWKS.")

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

    @Option(help: "Least seconds between fetches triggered by unknown kids.")
    var cooldown: Double = 30

    @Option(name: .customLong("max-stale"), help: "Seconds past freshness the last good keys are served through an outage.")
    var maxStale: Double = 6 * 3600

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0…65535") }
        guard (jwksURL != nil) != discovery else { throw ValidationError("give exactly one of --jwks-url or --discovery") }
        guard cooldown.isFinite, cooldown >= 0, maxStale.isFinite, maxStale >= 0 else {
            throw ValidationError("--cooldown and --max-stale must be non-negative numbers of seconds")
        }
    }

    func run() async throws {
        LoggingSystem.bootstrap { StreamLogHandler.standardError(label: $0) }
        let location: RemoteJWKS.Location
        if let jwksURL {
            guard let url = URL(string: jwksURL) else { throw ValidationError("--jwks-url is not a URL") }
            location = .url(url)
        } else {
            location = .discovery(issuer: issuer)
        }
        let keys: RemoteJWKS
        do throws(AuthError) {
            keys = try RemoteJWKS(location, transport: AsyncHTTPClientTransport.shared,
                                  options: RemoteJWKSOptions(cooldown: .seconds(clamping: cooldown), maxStaleness: .seconds(clamping: maxStale)),
                                  logger: Logger(label: "resource-server.jwks"))
        } catch {
            throw ValidationError(error.message)
        }
        do throws(JWTError) { try await keys.prewarm() } catch {
            FileHandle.standardError.write(Data("warning: \(error.reason); will retry when tokens arrive\n".utf8))
        }
        let options = ValidationOptions(leeway: .seconds(60), requiredClaims: ["exp", "iss", "aud"], issuers: [issuer], audiences: [audience])
        let app = ResourceServerApp.make(keys: keys, options: options, port: port) { port in
            FileHandle.standardOutput.write(Data("listening on http://127.0.0.1:\(port)\n".utf8))
        }
        try await app.runService(gracefulShutdownSignals: [.sigterm, .sigint])
    }
}
