#if Hummingbird && Postgres
import Foundation
import Testing
import TokenKitTestSupport

/// A discovery document naming another issuer (a mix-up) is a refusal, exit 1 with one
/// `error:` line, in `tokenkit token --issuer` as in `tokenkit login --issuer`.
@Suite("tokenkit token/login --issuer: another issuer's discovery document")
struct DiscoveryIssuerMismatchCLITests {
    typealias Sandbox = TokenCommandProcessTests.Sandbox

    @Test("token --grant client-credentials and login exit 1 with one error line")
    func issuerMismatchExitsOne() async throws {
        let cli = try TokenKitCLI()
        let sandbox = try Sandbox()
        let secret = sandbox.root + "/client-secret"
        #expect(FileManager.default.createFile(atPath: secret, contents: Data("s3cret\n".utf8), attributes: [.posixPermissions: 0o600]))
        try await ScriptedHTTPServer.with { server in
            let issuer = server.baseURL + "/realm"
            let document = """
                {"issuer":"\(server.baseURL)/other","token_endpoint":"\(server.baseURL)/token",
                "authorization_endpoint":"\(server.baseURL)/authorize","device_authorization_endpoint":"\(server.baseURL)/device"}
                """
            await server.state.set("/realm/.well-known/openid-configuration", .json(document))
            let key = ["--service", "com.example.mixup", "--account", "a"]
            let token = try await cli.run(
                ["token", "--grant", "client-credentials"] + key + ["--issuer", issuer, "--client-id", "svc", "--client-secret-file", secret]
                    + sandbox.backend + ["--scrypt-log-n", "10"],
                environment: .exactly(sandbox.environment))
            let login = try await cli.run(
                ["login", "--device"] + key + ["--issuer", issuer, "--client-id", "app"] + sandbox.backend + ["--scrypt-log-n", "10"],
                environment: .exactly(sandbox.environment))
            for outcome in [token, login] {
                #expect(outcome.status == 1, "stderr: \(outcome.stderr)")
                #expect(outcome.stdoutText.isEmpty)
                #expect(outcome.stderr.hasPrefix("error: ") && outcome.stderr.contains("expected exactly"), "stderr: \(outcome.stderr)")
                #expect(outcome.stderr.filter { $0 == "\n" }.count == 1)
            }
            #expect(await server.state.count("/realm/.well-known/openid-configuration") == 2)
        }
    }
}
#endif
