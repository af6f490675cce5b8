#if Hummingbird
import Foundation
import Testing
import TokenKit
import TokenKitTestSupport

/// `resource-server`'s start-up and connection handling, from the binary.
@Suite("resource-server example: start-up and connections")
struct ResourceServerLifecycleTests {
    typealias Example = ResourceServerExampleTests

    @Test("SIGTERM while the start-up pre-warm waits for a silent JWKS server exits 0 at once")
    func sigtermDuringPrewarm() async throws {
        let silent = try SilentListener()
        defer { silent.close() }
        let child = try Example.Child(arguments: Example.Child.arguments(jwksPort: silent.port))
        // The pre-warm's request has reached the silent server: the server is mid-pre-warm.
        #expect(try await silent.waitForPendingConnection())
        child.running.signal(SIGTERM)
        let outcome = try await child.running.wait(timeout: .seconds(120))
        #expect(outcome.status == 0, "stderr: \(outcome.stderrText)")
        #expect(!outcome.stdoutText.contains("listening on"), "it never started serving")
        // It did not wait for the pre-warm to give up first (that prints this warning).
        #expect(!outcome.stderrText.contains("will retry when tokens arrive"), "stderr: \(outcome.stderrText)")
    }

    @Test("connections that have not sent a complete request head within 10 s are closed; whole requests are still served")
    func halfSentHeadersAreClosed() async throws {
        let key = try JWTKey.generate(for: .es256, keyID: "k1")
        try await Example.withJWKSServer(try JWKSet.publicDocument([key])) { jwksPort, _ in
            let (child, port) = try await Example.Child.serving(jwksPort: jwksPort)
            defer { _ = child.stop() }
            let started = ContinuousClock.now
            let halfSent = try (0..<50).map { index in
                let connection = try LoopbackConnection(port: port)
                // Some send nothing, some a partial head, some one that never ends.
                switch index % 3 {
                case 0: break
                case 1: try connection.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                default: try connection.send("GET /healthz HTTP/1.1\r\nX-Slow: ")
                }
                return connection
            }
            try await withThrowingTaskGroup(of: Bool.self) { group in
                for connection in halfSent {
                    group.addTask { try await connection.readUntilClosed(timeout: .seconds(60)).closed }
                }
                for try await closed in group { #expect(closed, "a half-sent connection stayed open for 60 s") }
            }
            #expect(ContinuousClock.now - started >= .seconds(9), "closed by the header timeout, not at once")
            #expect(try await Example.get(port, "/healthz").status == 200)
            #expect(child.stop() == 0)
        }
    }
}
#endif
