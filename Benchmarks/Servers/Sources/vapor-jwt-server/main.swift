import BenchServerSupport
import JWT
import Vapor

// Vapor 4 + vapor/jwt: the comparison for `resource-server` (issue 29). The same routes:
// `GET /healthz` (open) and `GET /me` (`req.jwt.verify(as:)` on the Bearer token; answers the
// verified claims as JSON, or 401).

extension BenchClaims: Content {}

let options = ServerOptions.current
// Vapor parses its own command line: give it `serve` only (the options above are ours).
let app = try await Application.make(Environment(name: "production", arguments: ["vapor-jwt-server", "serve"]))
app.logger.logLevel = .warning
app.http.server.configuration.hostname = "127.0.0.1"
app.http.server.configuration.port = options.port
app.jwt.keys = try await fetchKeys(from: options.jwksURL)
app.get("healthz") { _ in #"{"ok":true}"# }
app.get("me") { req async throws -> BenchClaims in
    try await req.jwt.verify(as: BenchClaims.self)
}
do {
    try await app.execute()
} catch {
    app.logger.report(error: error)
    try? await app.asyncShutdown()
    throw error
}
try await app.asyncShutdown()
