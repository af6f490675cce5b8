import AppServerKit
import ArgumentParser
import Foundation
import Hummingbird

/// `pokeme-server [--port PORT] [--token-lifetime SECONDS]`: PokeMe's match API.
///
/// `POST /auth/register` (`{"email","password","name"}` → 201 user; 409 taken), `POST
/// /auth/login` (`{"email","password"}`), `POST /auth/refresh`, `POST /auth/logout`,
/// `GET /me`, `GET /matches/today`, `POST /matches/{id}/disconnect` (404 unknown match).
@main
struct PokeMeServer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pokeme-server",
        abstract: "PokeMe's API: sign-up, sign-in, today's matches.")

    @OptionGroup var server: ServerOptions

    func run() async throws {
        let accounts = AccountBook()
        let issuer = try AccessTokenIssuer(issuer: "urn:tokenkit-examples:pokeme", audience: "pokeme-api", lifetime: server.tokenLifetime)
        let auth = AuthRoutes(accounts: accounts, sessions: SessionIssuer(accessTokens: issuer, records: MemoryRefreshTokenRecords()), loginField: "email")
        let matches = MatchBook()
        let router = Router(context: AppRequestContext.self)
        auth.register(on: router)
        let protected = BearerProtection(issuer: issuer, realm: "pokeme").group(on: router)

        router.post("/auth/register") { request, _ -> Response in
            let body = try await JSONBody.read(request)
            let email = try body.string("email")
            let name = try body.string("name")
            let password = try body.string("password")
            guard email.contains("@") else { throw APIError.badRequest("email must be an email address") }
            guard let account = try await accounts.register(login: email, name: name, password: password) else {
                throw APIError.conflict("an account with this email already exists")
            }
            return JSONBody.response(status: 201, auth.userFields(account))
        }
        protected.get("/me") { _, context -> Response in
            guard let account = await accounts.account(id: try context.subject()) else { throw APIError.notFound("no such user") }
            return JSONBody.response(status: 200, auth.userFields(account))
        }
        protected.get("/matches/today") { _, context -> Response in
            let user = try context.subject()
            return JSONBody.response(status: 200, array: await matches.today(for: user).map { .object($0.fields) })
        }
        protected.post("/matches/:id/disconnect") { _, context -> Response in
            let user = try context.subject()
            guard let id = context.parameters.get("id"), let match = await matches.disconnect(id, for: user) else {
                throw APIError.notFound("no match with this id today")
            }
            return JSONBody.response(status: 200, match.fields)
        }
        try await ServerRunner.run(router: router, port: server.port, name: "pokeme-server")
    }
}

/// One of today's matches.
struct Match: Sendable {
    let id: String
    let name: String
    let interests: [String]
    var connected: Bool

    var fields: [String: JSONField] {
        ["id": .string(id), "name": .string(name), "interests": .array(interests.map { .string($0) }),
         "status": .string(connected ? "connected" : "disconnected")]
    }
}

/// Today's matches per user: three made-up people, each disconnectable.
actor MatchBook {
    private var byUser: [String: [Match]] = [:]

    func today(for user: String) -> [Match] {
        if let existing = byUser[user] { return existing }
        let made = [
            Match(id: "m1", name: "Ash", interests: ["climbing", "jazz"], connected: true),
            Match(id: "m2", name: "Brook", interests: ["chess", "ramen"], connected: true),
            Match(id: "m3", name: "Misty", interests: ["swimming"], connected: true),
        ]
        byUser[user] = made
        return made
    }

    func disconnect(_ id: String, for user: String) -> Match? {
        var list = today(for: user)
        guard let index = list.firstIndex(where: { $0.id == id }) else { return nil }
        list[index].connected = false
        byUser[user] = list
        return list[index]
    }
}
