import AppServerKit
import ArgumentParser
import Foundation
import Hummingbird

/// `cleveroo-server [--port PORT] [--database PATH] [--token-lifetime SECONDS]`
@main
struct CleverooServer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cleveroo-server",
        abstract: "The Cleveroo family API: parents register and add children; both sign in.")

    @OptionGroup var server: ServerOptions

    @Option(help: "An SQLite file that keeps accounts and sessions across restarts (default: memory only).")
    var database: String?

    func run() async throws {
        if let database, database.isEmpty { throw ValidationError("--database must not be empty") }
        let data = try CleverooDatabase(path: database)
        let issuer = try AccessTokenIssuer(
            issuer: "urn:tokenkit-examples:cleveroo", audience: "cleveroo-api", lifetime: server.tokenLifetime)
        let routes = CleverooRoutes(
            database: data, sessions: SessionIssuer(accessTokens: issuer, records: data), passwords: PasswordHasher(),
            protection: BearerProtection(issuer: issuer, realm: "cleveroo"))
        let router = Router(context: AppRequestContext.self)
        routes.register(on: router)
        try await ServerRunner.run(router: router, port: server.port, name: "cleveroo-server")
    }
}
