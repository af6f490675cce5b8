#if Hummingbird && Postgres
import Foundation
import TokenKitTestSupport

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
        try await ChildProcess(
            browser, arguments, environment: variables.merging(extra) { $1 }, stdin: .inherit, stdout: .discard, stderr: .inherit
        ).run(timeout: .seconds(60)).status
    }
}
#endif
