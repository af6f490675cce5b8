import AppClientKit
import ArgumentParser
import Foundation
import TokenKitURLSession

/// `jwt-client [--server URL] login|dashboard|logout`: the "JWT Client Pro" dashboard.
@main
struct JWTClient: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jwt-client",
        abstract: "The JWT dashboard client: loads four protected endpoints at once, refreshing the token once for all.",
        subcommands: [Login.self, Dashboard.self, Logout.self])
}

/// `--server`, `--timeout` and the store options.
struct JWTClientOptions: ParsableArguments {
    @Option(help: "The dashboard server.")
    var server: String = "http://localhost:3000"

    @Option(help: "Seconds each request may take before it fails (and, if idempotent, is retried).")
    var timeout: Double = 10

    @OptionGroup var store: StoreOptions

    func session() async throws -> ClientSession {
        guard timeout > 0, timeout <= 300 else { throw ClientFailure("--timeout must be more than 0 and at most 300 seconds", status: 2) }
        let transport = RetryingHTTPTransport(wrapping: URLSessionTransport(timeout: .seconds(timeout)), attempts: 3)
        return try await ClientSession(app: "jwt-client", server: try APIClient.serverURL(server), options: store, transport: transport)
    }
}


extension JWTClient {
    struct Login: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Sign in (password from the prompt or stdin).")
        @OptionGroup var options: JWTClientOptions
        @Option var username: String

        func run() async {
            await ClientMain.run(signIn: "jwt-client login --username NAME") {
                let password = try SecretInput.read(prompt: "Password")
                let answer = try await options.session().logIn("/auth/login", body: ["username": username, "password": password]) { answer in
                    ["name": (answer["user"] as? [String: Any])?["name"] as? String ?? username]
                }
                say("signed in as \((answer["user"] as? [String: Any])?["name"] as? String ?? username)")
            }
        }
    }

    struct Dashboard: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Load /profile, /restaurants, /festivals and /users concurrently.")
        @OptionGroup var options: JWTClientOptions

        func run() async {
            await ClientMain.run(signIn: "jwt-client login --username NAME") {
                let session = try await options.session()
                let client = session.authorized
                // Four requests at once: AuthProvider makes one refresh for all of them.
                async let profile = client.send("GET", "/profile")
                async let restaurants = client.send("GET", "/restaurants")
                async let festivals = client.send("GET", "/festivals")
                async let users = client.send("GET", "/users")
                let loaded = try await (profile, restaurants, festivals, users)
                let name = loaded.0.object?["name"] as? String ?? "?"
                say("profile: \(name)")
                say("restaurants: \(names(loaded.1))")
                say("festivals: \(names(loaded.2))")
                say("users: \(names(loaded.3))")
                say("refreshes: \(session.refreshes.count)")
            }
        }

        private func names(_ document: JSONDocument) -> String {
            let items = document.array ?? []
            return "\(items.count) (\(items.compactMap { $0["name"] as? String }.joined(separator: ", ")))"
        }
    }

    struct Logout: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Sign out and forget the stored session.")
        @OptionGroup var options: JWTClientOptions

        func run() async {
            await ClientMain.run(signIn: "jwt-client login --username NAME") {
                say(try await options.session().logOut())
            }
        }
    }
}
