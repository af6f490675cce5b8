import AppClientKit
import Foundation

// The DAM app, moved onto TokenKit. Its hand-written `APIClient` used to read the token from
// UserDefaults and set `Authorization: Bearer …` in every request method; now one
// `APIClient` over `AuthorizingHTTPTransport` (inside `ClientSession.authorized`) does it for
// every request, refreshing once and retrying once on a 401, and the repositories below stay
// exactly as they were: they only know paths and models.

/// A mental-math problem.
struct Problem: Sendable {
    let question: String
    let answer: Int
}

/// An AI game.
struct Game: Sendable {
    let id: String
    let title: String
}

/// `/api/mental-math/…`.
struct MentalMathRepository {
    let api: APIClient

    func problems() async throws -> [Problem] {
        try await api.send("GET", "/api/mental-math/problems").array?.compactMap { item in
            guard let question = item["question"] as? String, let answer = (item["answer"] as? NSNumber)?.intValue else { return nil }
            return Problem(question: question, answer: answer)
        } ?? []
    }

    func submit(score: Int) async throws {
        try await api.send("POST", "/api/mental-math/scores", body: ["score": score])
    }
}

/// `/api/ai-games/…`.
struct AIGamesRepository {
    let api: APIClient

    func games() async throws -> [Game] {
        try await api.send("GET", "/api/ai-games/games").array?.compactMap { item in
            guard let id = item["id"] as? String, let title = item["title"] as? String else { return nil }
            return Game(id: id, title: title)
        } ?? []
    }

    func startSession(game: String) async throws -> String {
        try await api.send("POST", "/api/ai-games/sessions", body: ["game": game]).object?["session"] as? String ?? "?"
    }
}
