import AppServerKit
import ArgumentParser
import Foundation
import Hummingbird

/// `dashboard-server [--port PORT] [--token-lifetime SECONDS] [--flaky N] [--slow N]`: the JWT dashboard's API.
///
/// `POST /auth/login` (`{"username","password"}`; the account `demo`), `POST /auth/refresh`,
/// four protected endpoints (`/profile`, `/restaurants`, `/festivals`, `/users`), and
/// `GET /stats` with how many refreshes it made.
@main
struct DashboardServer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dashboard-server",
        abstract: "The JWT dashboard's API: a login, a refresh endpoint and four protected endpoints.")

    @OptionGroup var server: ServerOptions

    @Option(help: "Answer the first N requests to /restaurants with 503 (to show the client's retries).")
    var flaky: Int = 0

    @Option(help: "Answer the first N requests to /festivals only after 3 seconds (to show the client's timeout and retry).")
    var slow: Int = 0

    func run() async throws {
        guard flaky >= 0, slow >= 0 else { throw ValidationError("--flaky and --slow must not be negative") }
        let accounts = AccountBook()
        try await DemoAccount.seed(accounts, name: "Dana Demo")
        let issuer = try AccessTokenIssuer(issuer: "urn:tokenkit-examples:dashboard", audience: "dashboard-api", lifetime: server.tokenLifetime)
        let auth = AuthRoutes(accounts: accounts, sessions: SessionIssuer(accessTokens: issuer, records: MemoryRefreshTokenRecords()), loginField: "username")
        let router = Router(context: AppRequestContext.self)
        auth.register(on: router)
        let protected = BearerProtection(issuer: issuer, realm: "dashboard").group(on: router)
        let counter = auth.counter
        let flaky = self.flaky
        let slow = self.slow

        protected.get("/profile") { _, context -> Response in
            let user = try context.subject()
            await counter.add("profile")
            guard let account = await accounts.account(id: user) else { throw APIError.notFound("no such user") }
            return JSONBody.response(status: 200, auth.userFields(account))
        }
        protected.get("/restaurants") { _, _ -> Response in
            await counter.add("restaurants")
            if await counter.count("restaurants") <= flaky { throw APIError(503, "restaurants are temporarily unavailable") }
            return JSONBody.response(status: 200, array: ["Zur Letzten Instanz", "Lokal", "Markthalle Neun"].map { .object(["name": .string($0)]) })
        }
        protected.get("/festivals") { _, _ -> Response in
            await counter.add("festivals")
            if await counter.count("festivals") <= slow { try await Task.sleep(for: .seconds(3)) }
            return JSONBody.response(status: 200, array: ["Fusion", "Lollapalooza"].map { .object(["name": .string($0)]) })
        }
        protected.get("/users") { _, _ -> Response in
            await counter.add("users")
            return JSONBody.response(status: 200, array: ["Dana", "Eli", "Fay", "Gus"].map { .object(["name": .string($0)]) })
        }
        try await ServerRunner.run(router: router, port: server.port, name: "dashboard-server")
    }
}
