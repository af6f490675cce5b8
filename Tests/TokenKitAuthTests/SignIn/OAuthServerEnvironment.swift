import Foundation

/// The django-oauth-toolkit server started by `scripts/with-oauth-server` (its `TOKENKIT_OAUTH_*`
/// variables). Tests using it are skipped when it is absent, unless
/// `TOKENKIT_REQUIRE_OAUTH_SERVER=1` (set by `scripts/test`), where they fail instead.
struct OAuthServerEnvironment: Sendable {
    let variables: [String: String]

    static let current: OAuthServerEnvironment? = {
        let env = ProcessInfo.processInfo.environment
        guard env["TOKENKIT_OAUTH_ISSUER"] != nil else { return nil }
        return OAuthServerEnvironment(variables: env)
    }()

    /// Whether the DOT tests run: the server is there, or it is required (then they fail).
    static var enabled: Bool {
        current != nil || ProcessInfo.processInfo.environment["TOKENKIT_REQUIRE_OAUTH_SERVER"] == "1"
    }

    /// The environment, or a failure saying how to get it.
    static func require() throws -> OAuthServerEnvironment {
        guard let current else { throw DeadlineExceeded(what: "TOKENKIT_OAUTH_ISSUER is not set: run under scripts/with-oauth-server") }
        return current
    }

    subscript(_ name: String) -> String { variables["TOKENKIT_OAUTH_" + name] ?? "" }
    var issuer: String { self["ISSUER"] }
    var browser: String { self["BROWSER"] }

    /// Runs the scripted user agent with `arguments` and extra environment; returns its exit status.
    func runBrowser(_ arguments: [String], extra: [String: String] = [:]) async throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: browser)
        process.arguments = arguments
        process.environment = variables.merging(extra) { $1 }
        process.standardOutput = FileHandle.nullDevice
        let (exits, continuation) = AsyncStream.makeStream(of: Int32.self)
        process.terminationHandler = { continuation.yield($0.terminationStatus); continuation.finish() }
        try process.run()
        return try await withDeadline("browser.py", seconds: 60) {
            var iterator = exits.makeAsyncIterator()
            return await iterator.next() ?? -1
        }
    }
}
