import AppClientKit
import ArgumentParser
import Foundation

/// `pokeme [--server URL] [start|register|login|matches|disconnect|logout]`.
///
/// `start` (the default) is the app's launch: it restores the stored session and calls
/// `getMe` without asking for a password.
@main
struct PokeMe: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pokeme",
        abstract: "PokeMe: restores your session at start-up and shows today's matches.",
        subcommands: [Start.self, Register.self, Login.self, Matches.self, Disconnect.self, Logout.self],
        defaultSubcommand: Start.self)
}

/// `--server` and the store options.
struct PokeMeOptions: ParsableArguments {
    @Option(help: "The PokeMe server.")
    var server: String = "http://localhost:3000"

    @OptionGroup var store: StoreOptions

    /// The app's API over the stored session.
    func api() async throws -> PokeMeAPI {
        PokeMeAPI(session: try await ClientSession(app: "pokeme", server: try APIClient.serverURL(server), options: store))
    }
}

/// PokeMe's calls, named as in the original app's `APIService`.
struct PokeMeAPI {
    let session: ClientSession

    func register(email: String, name: String, password: String) async throws -> [String: Any] {
        try await session.anonymous.send("POST", "/auth/register", body: ["email": email, "name": name, "password": password]).object ?? [:]
    }

    func login(email: String, password: String) async throws -> String {
        let answer = try await session.logIn("/auth/login", body: ["email": email, "password": password]) { answer in
            ["name": (answer["user"] as? [String: Any])?["name"] as? String ?? email]
        }
        return (answer["user"] as? [String: Any])?["name"] as? String ?? email
    }

    /// Restores the stored session (no password) and asks the server who it belongs to.
    func getMe() async throws -> [String: Any] {
        try await session.authorized.send("GET", "/me").object ?? [:]
    }

    func todaysMatches() async throws -> [[String: Any]] {
        try await session.authorized.send("GET", "/matches/today").array ?? []
    }

    func disconnect(_ id: String) async throws -> [String: Any] {
        guard let escaped = id.addingPercentEncoding(withAllowedCharacters: .alphanumerics) else { throw ClientFailure("bad match id") }
        return try await session.authorized.send("POST", "/matches/\(escaped)/disconnect").object ?? [:]
    }
}


let signIn = "pokeme login --email EMAIL"

extension PokeMe {
    struct Start: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Restore the stored session and greet you (the app's launch).")
        @OptionGroup var options: PokeMeOptions

        func run() async {
            await ClientMain.run(signIn: signIn) {
                let me = try await options.api().getMe()
                say("welcome back, \(me["name"] as? String ?? "?") (\(me["email"] as? String ?? "?"))")
            }
        }
    }

    struct Register: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create an account (password from the prompt or stdin).")
        @OptionGroup var options: PokeMeOptions
        @Option var email: String
        @Option var name: String

        func run() async {
            await ClientMain.run(signIn: signIn) {
                let password = try SecretInput.read(prompt: "Password")
                let user = try await options.api().register(email: email, name: name, password: password)
                say("registered \(user["email"] as? String ?? email)")
            }
        }
    }

    struct Login: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Sign in (password from the prompt or stdin).")
        @OptionGroup var options: PokeMeOptions
        @Option var email: String

        func run() async {
            await ClientMain.run(signIn: signIn) {
                let password = try SecretInput.read(prompt: "Password")
                say("signed in as \(try await options.api().login(email: email, password: password))")
            }
        }
    }

    struct Matches: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Today's matches.")
        @OptionGroup var options: PokeMeOptions

        func run() async {
            await ClientMain.run(signIn: signIn) {
                for match in try await options.api().todaysMatches() {
                    let interests = (match["interests"] as? [String] ?? []).joined(separator: ", ")
                    say("\(match["id"] as? String ?? "?")\t\(match["name"] as? String ?? "?")\t\(match["status"] as? String ?? "?")\t\(interests)")
                }
            }
        }
    }

    struct Disconnect: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Disconnect from one of today's matches.")
        @OptionGroup var options: PokeMeOptions
        @Argument var id: String

        func run() async {
            await ClientMain.run(signIn: signIn) {
                let match = try await options.api().disconnect(id)
                say("disconnected from \(match["name"] as? String ?? id)")
            }
        }
    }

    struct Logout: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Sign out and clear the stored session.")
        @OptionGroup var options: PokeMeOptions

        func run() async {
            await ClientMain.run(signIn: signIn) {
                say(try await options.api().session.logOut())
            }
        }
    }
}
