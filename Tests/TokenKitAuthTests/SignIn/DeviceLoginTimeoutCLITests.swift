#if Hummingbird && Postgres
import Foundation
import HTTPServerTestSupport
import Hummingbird
import NIOCore
import Testing
import TokenKitTestSupport

/// `tokenkit login --device --timeout` against endpoints that never answer: the overall
/// deadline ends the login (exit 1, one `error:` line, nothing stored) instead of hanging.
/// Wall-clock bounded: listed in `timing_sensitive` in scripts/test.
@Suite("tokenkit login --device: a server that never answers")
struct DeviceLoginTimeoutCLITests {
    typealias Sandbox = TokenCommandProcessTests.Sandbox

    /// A server whose device endpoint answers (interval 1 s) or hangs, and whose token endpoint hangs.
    func withServer(deviceHangs: Bool, _ body: @escaping @Sendable (Int) async throws -> Void) async throws {
        let router = Router()
        router.post("device") { _, _ -> Response in
            if deviceHangs { try await Task.sleep(for: .seconds(110)) }
            let json = #"{"device_code":"dc","user_code":"ABCD-EFGH","verification_uri":"http://127.0.0.1/activate","expires_in":600,"interval":1}"#
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: json)))
        }
        router.post("token") { _, _ -> Response in
            try await Task.sleep(for: .seconds(110))
            return Response(status: .ok)
        }
        // The handlers above still hang when the body ends (the CLI has exited by then, so no
        // connection is still arriving): a short grace before the cancel, not the default 2 s.
        try await LocalHTTPServer.run(router, label: "hanging-device-server", grace: .milliseconds(250), body)
    }

    func login(port: Int, sandbox: Sandbox) async throws -> (CLIResult, Duration) {
        let cli = try TokenKitCLI()
        let started = ContinuousClock.now
        let outcome = try await cli.run(
            ["login", "--device", "--service", "app", "--account", "hang", "--timeout", "3",
             "--token-endpoint", "http://127.0.0.1:\(port)/token", "--device-authorization-endpoint", "http://127.0.0.1:\(port)/device",
             "--client-id", "app"] + sandbox.backend + ["--scrypt-log-n", "10"],
            environment: .exactly(sandbox.environment), timeout: .seconds(60))
        return (outcome, ContinuousClock.now - started)
    }

    @Test("a token endpoint that never answers a poll: exit 1 after --timeout, nothing stored")
    func tokenEndpointHangs() async throws {
        let sandbox = try Sandbox()
        try await withServer(deviceHangs: false) { port in
            let (outcome, elapsed) = try await login(port: port, sandbox: sandbox)
            #expect(outcome.status == 1, "stderr: \(outcome.stderr)")
            #expect(outcome.stderr.contains("ABCD-EFGH"))
            #expect(outcome.stderr.hasSuffix("error: sign-in timed out after 3 seconds\n"), "stderr: \(outcome.stderr)")
            #expect(elapsed < .seconds(20))
            let stored = try await TokenKitCLI().run(
                ["store", "get", "--service", "app", "--account", "hang"] + sandbox.backend, environment: .exactly(sandbox.environment))
            #expect(stored.status == 1)
        }
    }

    @Test("a device authorization endpoint that never answers: exit 1 after --timeout, no code shown")
    func deviceEndpointHangs() async throws {
        let sandbox = try Sandbox()
        try await withServer(deviceHangs: true) { port in
            let (outcome, elapsed) = try await login(port: port, sandbox: sandbox)
            #expect(outcome.status == 1, "stderr: \(outcome.stderr)")
            #expect(outcome.stderr == "error: sign-in timed out after 3 seconds\n")
            #expect(elapsed < .seconds(20))
        }
    }
}
#endif
