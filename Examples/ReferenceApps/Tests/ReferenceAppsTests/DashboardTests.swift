import Foundation
import Testing
import TokenKitTestSupport

/// The JWT dashboard: four concurrent loads, exactly one refresh, retries on 5xx.
@Suite("JWT dashboard")
struct DashboardTests {
    static func jwtClient(_ server: ServerProcess, _ arguments: [String], store: ClientStore, stdin: String = "") async throws -> CLIResult {
        try await store.run("jwt-client", server.url, arguments, stdin: stdin)
    }

    @Test("with an expired access token, four concurrent loads make exactly one refresh (counted by the server and the client)")
    func oneRefreshForFour() async throws {
        // Tokens live 20 s; the client refreshes 2 s before expiry.
        try await ServerProcess.with("dashboard-server", ["--token-lifetime", "20"]) { server in
            let store = try ClientStore()
            let login = try await Self.jwtClient(server, ["login", "--username", "demo"], store: store, stdin: "demo-password\n")
            let loggedIn = ContinuousClock.now
            #expect(login.status == 0 && login.stdoutText == "signed in as Dana Demo\n", "\(login.summary)")

            let fresh = try await Self.jwtClient(server, ["dashboard"], store: store)
            #expect(fresh.status == 0, "\(fresh.summary)")
            #expect(fresh.stdoutText.contains("profile: Dana Demo\n") && fresh.stdoutText.contains("restaurants: 3 (") && fresh.stdoutText.contains("festivals: 2 (") && fresh.stdoutText.contains("users: 4 ("), "\(fresh.summary)")
            #expect(fresh.stdoutText.hasSuffix("refreshes: 0\n"), "\(fresh.summary)")

            try await Task.sleep(until: loggedIn + .seconds(21))
            let expired = try await Self.jwtClient(server, ["dashboard"], store: store)
            #expect(expired.status == 0 && expired.stdoutText.hasSuffix("refreshes: 1\n"), "\(expired.summary)")
            let stats = try await HTTP.send("GET", server.url.at("/stats"))
            #expect((stats.object["refresh"] as? NSNumber)?.intValue == 1, "\(stats.text)")
            #expect((stats.object["profile"] as? NSNumber)?.intValue == 2)
            #expect((stats.object["users"] as? NSNumber)?.intValue == 2)
        }
    }

    @Test("GETs answered 503 are retried with backoff; a wrong password shows the server's message")
    func retriesAndErrors() async throws {
        try await ServerProcess.with("dashboard-server", ["--flaky", "2"]) { server in
            let store = try ClientStore()
            let wrong = try await Self.jwtClient(server, ["login", "--username", "demo"], store: store, stdin: "nope\n")
            expectOneErrorLine(wrong, status: 1, containing: "error: invalid username or password")
            _ = try await Self.jwtClient(server, ["login", "--username", "demo"], store: store, stdin: "demo-password\n")
            let loaded = try await Self.jwtClient(server, ["dashboard"], store: store)
            #expect(loaded.status == 0 && loaded.stdoutText.contains("restaurants: 3 ("), "\(loaded.summary)")
            let stats = try await HTTP.send("GET", server.url.at("/stats"))
            #expect((stats.object["restaurants"] as? NSNumber)?.intValue == 3, "\(stats.text)")
        }
    }

    @Test("a request slower than --timeout fails and is retried (GET): the dashboard still loads")
    func timeoutAndRetry() async throws {
        try await ServerProcess.with("dashboard-server", ["--slow", "1"]) { server in
            let store = try ClientStore()
            _ = try await Self.jwtClient(server, ["login", "--username", "demo"], store: store, stdin: "demo-password\n")
            let loaded = try await Self.jwtClient(server, ["dashboard", "--timeout", "1"], store: store)
            #expect(loaded.status == 0 && loaded.stdoutText.contains("festivals: 2 ("), "\(loaded.summary)")
            let stats = try await HTTP.send("GET", server.url.at("/stats"))
            #expect((stats.object["festivals"] as? NSNumber)?.intValue == 2, "\(stats.text)")
        }
    }

    @Test("without a session the dashboard says signed out")
    func signedOut() async throws {
        try await ServerProcess.with("dashboard-server") { server in
            let store = try ClientStore()
            let result = try await Self.jwtClient(server, ["dashboard"], store: store)
            expectOneErrorLine(result, status: 1, containing: "error: signed out: your session has ended; sign in again with `jwt-client login --username NAME`")
        }
    }
}

/// PokeMe: the session is restored at start-up without a password; logout clears it.
@Suite("PokeMe")
struct PokeMeTests {
    static func pokeme(_ server: ServerProcess, _ arguments: [String], store: ClientStore, stdin: String = "") async throws -> CLIResult {
        try await store.run("pokeme", server.url, arguments, stdin: stdin)
    }

    @Test("register, log in, then each start restores the session and calls getMe; matches and disconnect; logout clears it")
    func sessionRestore() async throws {
        try await ServerProcess.with("pokeme-server") { server in
            let store = try ClientStore()
            let registered = try await Self.pokeme(server, ["register", "--email", "ash@example.com", "--name", "Ash"], store: store, stdin: "pikachu-2026\n")
            #expect(registered.status == 0 && registered.stdoutText == "registered ash@example.com\n", "\(registered.summary)")
            let taken = try await Self.pokeme(server, ["register", "--email", "ASH@example.com", "--name", "Ash"], store: store, stdin: "x\n")
            expectOneErrorLine(taken, status: 1, containing: "error: an account with this email already exists")
            let login = try await Self.pokeme(server, ["login", "--email", "ash@example.com"], store: store, stdin: "pikachu-2026\n")
            #expect(login.status == 0 && login.stdoutText == "signed in as Ash\n", "\(login.summary)")

            // Start-up: no password on stdin, no login; the stored session is used.
            for _ in 0..<2 {
                let start = try await Self.pokeme(server, [], store: store)
                #expect(start.status == 0 && start.stdoutText == "welcome back, Ash (ash@example.com)\n", "\(start.summary)")
            }
            let matches = try await Self.pokeme(server, ["matches"], store: store)
            #expect(matches.status == 0 && matches.stdoutText.split(separator: "\n").count == 3 && matches.stdoutText.contains("m2\tBrook\tconnected"), "\(matches.summary)")
            let disconnect = try await Self.pokeme(server, ["disconnect", "m2"], store: store)
            #expect(disconnect.status == 0 && disconnect.stdoutText == "disconnected from Brook\n", "\(disconnect.summary)")
            let after = try await Self.pokeme(server, ["matches"], store: store)
            #expect(after.stdoutText.contains("m2\tBrook\tdisconnected"), "\(after.summary)")
            let unknown = try await Self.pokeme(server, ["disconnect", "m9"], store: store)
            expectOneErrorLine(unknown, status: 1, containing: "error: no match with this id today")

            let out = try await Self.pokeme(server, ["logout"], store: store)
            #expect(out.status == 0 && out.stdoutText == "signed out\n", "\(out.summary)")
            let start = try await Self.pokeme(server, ["start"], store: store)
            expectOneErrorLine(start, status: 1, containing: "error: signed out: your session has ended; sign in again with `pokeme login --email EMAIL`")
        }
    }
}

/// The DAM API client: one APIClient attaches the token to both endpoint groups.
@Suite("DAM client")
struct DAMTests {
    static func dam(_ server: ServerProcess, _ arguments: [String], store: ClientStore, stdin: String = "") async throws -> CLIResult {
        try await store.run("dam", server.url, arguments, stdin: stdin)
    }

    @Test("the bearer token reaches /api/mental-math and /api/ai-games; without it both groups are 401")
    func bothGroups() async throws {
        try await ServerProcess.with("dam-server") { server in
            let store = try ClientStore()
            for path in ["/api/mental-math/problems", "/api/ai-games/games"] {
                let bare = try await HTTP.send("GET", server.url.at(path))
                #expect(bare.status == 401 && bare.message == "missing bearer token", "\(path): \(bare.text)")
            }
            let login = try await Self.dam(server, ["login", "--username", "demo"], store: store, stdin: "demo-password\n")
            #expect(login.status == 0, "\(login.summary)")
            let problems = try await Self.dam(server, ["mental-math", "problems"], store: store)
            #expect(problems.status == 0 && problems.stdoutText.hasPrefix("7 + 8 = 15\n"), "\(problems.summary)")
            let submit = try await Self.dam(server, ["mental-math", "submit", "--score", "90"], store: store)
            #expect(submit.status == 0 && submit.stdoutText == "score 90 saved\n", "\(submit.summary)")
            let badScore = try await Self.dam(server, ["mental-math", "submit", "--score", "101"], store: store)
            expectOneErrorLine(badScore, status: 1, containing: "error: score must be 0 to 100")
            let games = try await Self.dam(server, ["ai-games", "list"], store: store)
            #expect(games.status == 0 && games.stdoutText == "riddles\tRiddle Robot\nstory\tStory Builder\n", "\(games.summary)")
            let started = try await Self.dam(server, ["ai-games", "start", "--game", "story"], store: store)
            #expect(started.status == 0 && started.stdoutText.hasPrefix("started story (session "), "\(started.summary)")
            let stats = try await HTTP.send("GET", server.url.at("/stats"))
            #expect((stats.object["mental-math"] as? NSNumber)?.intValue == 2 && (stats.object["ai-games"] as? NSNumber)?.intValue == 2, "\(stats.text)")
        }
    }
}
