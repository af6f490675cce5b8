import AppClientKit
import ArgumentParser
import Foundation

/// `dam [--server URL] login|mental-math|ai-games|logout`: the DAM app's API client.
@main
struct DAM: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dam",
        abstract: "The DAM app's API client: one APIClient attaches the bearer token to every request.",
        subcommands: [Login.self, MentalMath.self, AIGames.self, Logout.self])
}

/// `--server` and the store options.
struct DAMOptions: ParsableArguments {
    @Option(help: "The DAM server.")
    var server: String = "http://localhost:3000"

    @OptionGroup var store: StoreOptions

    func session() async throws -> ClientSession {
        try await ClientSession(app: "dam", server: try APIClient.serverURL(server), options: store)
    }
}


let signIn = "dam login --username NAME"

extension DAM {
    struct Login: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Sign in (password from the prompt or stdin).")
        @OptionGroup var options: DAMOptions
        @Option var username: String

        func run() async {
            await ClientMain.run(signIn: signIn) {
                let password = try SecretInput.read(prompt: "Password")
                try await options.session().logIn("/auth/login", body: ["username": username, "password": password]) { _ in ["name": username] }
                say("signed in as \(username)")
            }
        }
    }

    struct MentalMath: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "mental-math", abstract: "The mental-math endpoints.", subcommands: [Problems.self, Submit.self])

        struct Problems: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "List today's problems.")
            @OptionGroup var options: DAMOptions

            func run() async {
                await ClientMain.run(signIn: signIn) {
                    let repository = MentalMathRepository(api: try await options.session().authorized)
                    for problem in try await repository.problems() { say("\(problem.question) = \(problem.answer)") }
                }
            }
        }

        struct Submit: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Submit a score (0 to 100).")
            @OptionGroup var options: DAMOptions
            @Option var score: Int

            func run() async {
                await ClientMain.run(signIn: signIn) {
                    try await MentalMathRepository(api: try await options.session().authorized).submit(score: score)
                    say("score \(score) saved")
                }
            }
        }
    }

    struct AIGames: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "ai-games", abstract: "The AI-games endpoints.", subcommands: [List.self, Start.self])

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "List the games.")
            @OptionGroup var options: DAMOptions

            func run() async {
                await ClientMain.run(signIn: signIn) {
                    let repository = AIGamesRepository(api: try await options.session().authorized)
                    for game in try await repository.games() { say("\(game.id)\t\(game.title)") }
                }
            }
        }

        struct Start: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Start a game session.")
            @OptionGroup var options: DAMOptions
            @Option var game: String

            func run() async {
                await ClientMain.run(signIn: signIn) {
                    let session = try await AIGamesRepository(api: try await options.session().authorized).startSession(game: game)
                    say("started \(game) (session \(session))")
                }
            }
        }
    }

    struct Logout: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Sign out and forget the stored session.")
        @OptionGroup var options: DAMOptions

        func run() async {
            await ClientMain.run(signIn: signIn) {
                say(try await options.session().logOut())
            }
        }
    }
}
