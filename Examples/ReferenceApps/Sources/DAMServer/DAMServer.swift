import AppServerKit
import ArgumentParser
import Foundation
import Hummingbird

/// `dam-server [--port PORT] [--token-lifetime SECONDS]`: the Cleveroo DAM app's API.
///
/// `POST /auth/login` (`{"username","password"}`; the account `demo`), `POST /auth/refresh`,
/// and two protected endpoint groups: `/api/mental-math/…` (`GET problems`, `POST scores`)
/// and `/api/ai-games/…` (`GET games`, `POST sessions`). `GET /stats` counts the requests
/// each group accepted with a valid bearer token.
@main
struct DAMServer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dam-server",
        abstract: "The DAM app's API: mental-math and AI-games endpoints behind bearer tokens.")

    @OptionGroup var server: ServerOptions

    func run() async throws {
        let accounts = AccountBook()
        try await DemoAccount.seed(accounts, name: "Dana Demo")
        let issuer = try AccessTokenIssuer(issuer: "urn:tokenkit-examples:dam", audience: "dam-api", lifetime: server.tokenLifetime)
        let auth = AuthRoutes(accounts: accounts, sessions: SessionIssuer(accessTokens: issuer, records: MemoryRefreshTokenRecords()), loginField: "username")
        let counter = auth.counter
        let router = Router(context: AppRequestContext.self)
        auth.register(on: router)
        let protection = BearerProtection(issuer: issuer, realm: "dam")
        let mentalMath = protection.group(on: router, "/api/mental-math")
        let aiGames = protection.group(on: router, "/api/ai-games")

        mentalMath.get("problems") { _, _ -> Response in
            await counter.add("mental-math")
            return JSONBody.response(status: 200, array: [("7 + 8", 15), ("6 × 7", 42), ("81 ÷ 9", 9)].map { question, answer in
                .object(["question": .string(question), "answer": .int(answer)])
            })
        }
        mentalMath.post("scores") { request, context -> Response in
            let user = try context.subject()
            let score = try await JSONBody.read(request).int("score")
            guard (0...100).contains(score) else { throw APIError.badRequest("score must be 0 to 100") }
            await counter.add("mental-math")
            return JSONBody.response(status: 201, ["user": .string(user), "score": .int(score)])
        }
        aiGames.get("games") { _, _ -> Response in
            await counter.add("ai-games")
            return JSONBody.response(status: 200, array: [("riddles", "Riddle Robot"), ("story", "Story Builder")].map { id, title in
                .object(["id": .string(id), "title": .string(title)])
            })
        }
        aiGames.post("sessions") { request, _ -> Response in
            let game = try await JSONBody.read(request).string("game")
            guard ["riddles", "story"].contains(game) else { throw APIError.notFound("no game with this id") }
            await counter.add("ai-games")
            return JSONBody.response(status: 201, ["game": .string(game), "session": .string(UUID().uuidString.lowercased())])
        }
        try await ServerRunner.run(router: router, port: server.port, name: "dam-server")
    }
}
