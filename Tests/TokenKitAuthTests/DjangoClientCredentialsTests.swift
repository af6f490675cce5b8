#if Hummingbird && Postgres
import Foundation
import Testing
import TokenKitAuth
import TokenKitStore
import TokenKitURLSession
import TokenKitTestSupport

/// `tokenkit token --grant client-credentials` against the real django-oauth-toolkit server
/// (`scripts/with-oauth-server`). Skipped when that server is not running, unless
/// `TOKENKIT_REQUIRE_OAUTH_SERVER=1`, which makes a missing server a failure.
@Suite(
    "client credentials against django-oauth-toolkit",
    .enabled(if: DjangoServer.isAvailable || DjangoServer.isRequired, "needs scripts/with-oauth-server"))
struct DjangoClientCredentialsTests {
    typealias Sandbox = TokenCommandProcessTests.Sandbox

    func arguments(_ server: DjangoServer, _ sandbox: Sandbox, account: String, _ extra: [String]) -> [String] {
        ["token", "--grant", "client-credentials", "--service", "com.example.svc", "--account", account,
         "--token-endpoint", server.tokenEndpoint, "--client-id", server.clientID]
            + extra + sandbox.backend + ["--scrypt-log-n", "10"]
    }

    @Test("client_secret_basic and client_secret_post each get a token the server says is active; cached, then re-acquired within the skew")
    func basicAndPost() async throws {
        let server = try DjangoServer.current()
        let cli = try TokenKitCLI()
        let sandbox = try Sandbox()
        var tokens: [String] = []
        for (account, method) in [("basic", "basic"), ("post", "post")] {
            let args = arguments(server, sandbox, account: account, [
                "--client-secret-file", server.secretFile, "--client-auth", method, "--scope", "read",
            ])
            let outcome = try await cli.run(args, environment: .exactly(sandbox.environment))
            #expect(outcome.status == 0, "\(method): \(outcome.stderr)")
            #expect(outcome.stderr.isEmpty)
            let token = outcome.stdoutText.trimmingCharacters(in: .newlines)
            #expect(!token.isEmpty)
            #expect(try await server.introspect(token)["active"] as? Bool == true, "\(method): token not active")
            #expect(try await server.introspect(token)["scope"] as? String == "read")
            // Cached in the store: printed again as it is.
            let again = try await cli.run(args, environment: .exactly(sandbox.environment))
            #expect(again.stdoutText == outcome.stdoutText)
            // Within the skew (the token lives an hour): re-acquired, and the new one is live.
            let renewed = try await cli.run(args + ["--skew", "2h"], environment: .exactly(sandbox.environment))
            #expect(renewed.status == 0, "\(method): \(renewed.stderr)")
            #expect(renewed.stdoutText != outcome.stdoutText)
            #expect(try await server.introspect(renewed.stdoutText.trimmingCharacters(in: .newlines))["active"] as? Bool == true)
            tokens.append(token)
        }
        #expect(Set(tokens).count == 2)
    }

    @Test("a wrong secret is refused by the server: exit 1, invalid_client, the secret never printed")
    func wrongSecret() async throws {
        let server = try DjangoServer.current()
        let cli = try TokenKitCLI()
        let sandbox = try Sandbox()
        let wrong = sandbox.root + "/wrong-secret"
        guard FileManager.default.createFile(atPath: wrong, contents: Data("not-the-service-secret\n".utf8), attributes: [.posixPermissions: 0o600])
        else { throw DeadlineExceeded(what: "creating the secret file") }
        let outcome = try await cli.run(arguments(server, sandbox, account: "wrong", ["--client-secret-file", wrong]), environment: .exactly(sandbox.environment))
        #expect(outcome.status == 1, "stderr: \(outcome.stderr)")
        #expect(outcome.stdoutText.isEmpty)
        #expect(outcome.stderr.contains("invalid_client"))
        #expect(!outcome.stderr.contains("not-the-service-secret"))
    }
}

/// The django-oauth-toolkit server that `scripts/with-oauth-server` started, from its environment.
struct DjangoServer: Sendable {
    let issuer: String
    let clientID: String
    let secretFile: String
    var tokenEndpoint: String { issuer + "/token/" }

    static var isAvailable: Bool { ProcessInfo.processInfo.environment["TOKENKIT_OAUTH_ISSUER"] != nil }
    static var isRequired: Bool { ProcessInfo.processInfo.environment["TOKENKIT_REQUIRE_OAUTH_SERVER"] == "1" }

    /// The running server, or an error naming what is missing.
    static func current() throws -> DjangoServer {
        let environment = ProcessInfo.processInfo.environment
        guard let issuer = environment["TOKENKIT_OAUTH_ISSUER"],
              let clientID = environment["TOKENKIT_OAUTH_SERVICE_CLIENT_ID"],
              let secretFile = environment["TOKENKIT_OAUTH_SERVICE_SECRET_FILE"]
        else { throw DeadlineExceeded(what: "the django-oauth-toolkit server is not running (run under scripts/with-oauth-server)") }
        return DjangoServer(issuer: issuer, clientID: clientID, secretFile: secretFile)
    }

    /// The server's RFC 7662 introspection answer for `token`, asked as the service client.
    func introspect(_ token: String) async throws -> [String: Any] {
        let secret = try String(contentsOfFile: secretFile, encoding: .utf8).trimmingCharacters(in: .newlines)
        let basic = Data("\(clientID):\(secret)".utf8).base64EncodedString()
        let body = "token=" + (token.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
        let request = HTTPTransportRequest(
            method: "POST", url: try #require(URL(string: issuer + "/introspect/")),
            headers: [
                HTTPHeader(name: "Authorization", value: "Basic \(basic)"),
                HTTPHeader(name: "Content-Type", value: "application/x-www-form-urlencoded"),
            ],
            body: Array(body.utf8))
        let response = try await URLSessionTransport(timeout: .seconds(30)).send(request)
        #expect(response.status == 200, "introspection: HTTP \(response.status)")
        return try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any] ?? [:]
    }
}
#endif
