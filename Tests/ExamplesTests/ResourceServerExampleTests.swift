#if Hummingbird
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPServerTestSupport
import Hummingbird
import NIOCore
import Testing
import TokenKit
import TokenKitTestSupport

/// Runs the `resource-server` binary against a real JWKS server on 127.0.0.1 and drives its
/// documented contract over HTTP.
@Suite("resource-server example")
struct ResourceServerExampleTests {
    static let issuer = "https://issuer.test"
    static let audience = "api://resource"

    /// Counts JWKS requests, and says what the JWKS server answers (a key set, or an error
    /// status while the issuer is "down").
    actor Counter {
        var value = 0
        var failingStatus: Int?
        func bump() { value += 1 }
        func fail(with status: Int?) { failingStatus = status }
    }

    /// A running `resource-server` child process.
    struct Child: Sendable {
        let running: ChildProcess.Running

        init(arguments: [String]) throws {
            running = try ChildProcess(try BuiltBinary.path(named: "resource-server"), arguments, stdin: .inherit).start()
        }

        /// The first stdout line, waited for on a thread of its own (so the cooperative pool,
        /// which runs the in-process JWKS server, is never blocked by the wait).
        func firstLineOffPool(seconds: Double = 30) async throws -> String {
            let text = try await running.waitForStdout(timeout: .seconds(seconds)) { $0.contains("\n") }
            guard let newline = text.firstIndex(of: "\n") else { throw DeadlineExceeded(what: "first line (got \(text))") }
            return String(text[..<newline])
        }

        /// The arguments of a server for the test issuer and audience, with keys from the
        /// JWKS server on `jwksPort`, plus `extra`.
        static func arguments(jwksPort: Int, _ extra: [String] = []) -> [String] {
            ["--port", "0", "--issuer", issuer, "--audience", audience, "--jwks-url", "http://127.0.0.1:\(jwksPort)/jwks"] + extra
        }

        /// A server started with ``arguments(jwksPort:_:)`` and the port of its listening line.
        static func serving(jwksPort: Int, _ extra: [String] = []) async throws -> (Child, port: Int) {
            let child = try Child(arguments: arguments(jwksPort: jwksPort, extra))
            return (child, ResourceServerExampleTests.port(ofListeningLine: try await child.firstLineOffPool()))
        }

        /// Sends SIGTERM (unless it has exited) and returns the exit status.
        func stop() -> Int32 {
            running.signal(SIGTERM)
            return (try? running.wait().status) ?? -1
        }
    }

    struct Answer {
        let status: Int
        let challenge: String?
        let retryAfter: String?
        let body: String
    }

    static func get(_ port: Int, _ path: String, token: String? = nil) async throws -> Answer {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!, timeoutInterval: 30)
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = response as? HTTPURLResponse
        return Answer(status: http?.statusCode ?? 0, challenge: http?.value(forHTTPHeaderField: "WWW-Authenticate"),
                      retryAfter: http?.value(forHTTPHeaderField: "Retry-After"), body: String(decoding: data, as: UTF8.self))
    }

    /// The port of a `listening on http://127.0.0.1:PORT` line (0 when it is not one).
    static func port(ofListeningLine line: String) -> Int {
        let prefix = "listening on http://127.0.0.1:"
        return line.hasPrefix(prefix) ? Int(line.dropFirst(prefix.count)) ?? 0 : 0
    }

    static func token(_ signer: JWTSigner, aud: String = audience, exp: Int64 = Int64(Date().timeIntervalSince1970) + 600, scope: String? = nil) throws -> String {
        var claims = JSONObject([("iss", .string(issuer)), ("aud", .string(aud)), ("sub", .string("alice")), ("exp", .number(JSONNumber(exp)))])
        if let scope { claims["scope"] = .string(scope) }
        return try signer.sign(JWTClaims(claims))
    }

    /// Runs `body` with a JWKS server on 127.0.0.1 publishing `jwks`, counting requests.
    static func withJWKSServer(_ jwks: String, _ body: @escaping @Sendable (Int, Counter) async throws -> Void) async throws {
        let counter = Counter()
        let router = Router()
        router.get("jwks") { _, _ -> Response in
            await counter.bump()
            if let failing = await counter.failingStatus { return Response(status: .init(code: failing)) }
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: jwks)))
        }
        try await LocalHTTPServer.run(router, label: "jwks-server") { port in try await body(port, counter) }
    }

    @Test("the contract: listening line, /healthz, /me, /admin, RFC 6750 errors, SIGTERM exits 0 (with and without the verified-token cache)",
          arguments: [[], ["--verified-token-cache", "1000"]])
    func contract(caching: [String]) async throws {
        let key = try JWTKey.generate(for: .es256, keyID: "k1")
        let signer = try JWTSigner(key: key)
        let hmac = try JWTSigner(key: try JWTKey.hmac(secret: Array(repeating: 1, count: 32), keyID: "k1"))
        let jwks = try JWKSet.publicDocument([key])
        try await Self.withJWKSServer(jwks) { jwksPort, counter in
            let child = try Child(arguments: [
                "--port", "0", "--issuer", Self.issuer, "--audience", Self.audience,
                "--jwks-url", "http://127.0.0.1:\(jwksPort)/jwks", "--cooldown", "1", "--max-stale", "60",
            ] + caching)
            defer { _ = child.stop() }
            let line = try await child.firstLineOffPool()
            let prefix = "listening on http://127.0.0.1:"
            #expect(line.hasPrefix(prefix))
            let port = Int(line.dropFirst(prefix.count)) ?? 0
            #expect(port > 0)

            let health = try await Self.get(port, "/healthz")
            #expect(health.status == 200)
            let healthJSON = try JSONValue(parsing: health.body).objectValue
            #expect(healthJSON?["keys"]?.numberValue?.int64Value == 1)
            #expect(healthJSON?["last_fetch"]?.numberValue != nil)
            #expect(healthJSON?["last_error"] == .null)

            let missing = try await Self.get(port, "/me")
            #expect(missing.status == 401)
            #expect(missing.challenge == #"Bearer realm="resource-server""#)
            #expect(missing.body.contains(#""error":"missing_token""#))

            // Each token twice: with the cache, the second use is served from it.
            let good = try Self.token(signer)
            for _ in 0..<2 {
                let me = try await Self.get(port, "/me", token: good)
                #expect(me.status == 200)
                let claims = try JSONValue(parsing: me.body).objectValue
                #expect(claims?["sub"]?.stringValue == "alice" && claims?["aud"]?.stringValue == Self.audience)
            }

            let readOnly = try Self.token(signer, scope: "read")
            for _ in 0..<2 {
                let notAdmin = try await Self.get(port, "/admin", token: readOnly)
                #expect(notAdmin.status == 403)
                #expect(notAdmin.challenge?.contains(#"error="insufficient_scope""#) == true)
                #expect(notAdmin.challenge?.contains(#"scope="admin""#) == true)
                #expect(notAdmin.body.contains(#""error":"insufficient_scope""#))
            }

            // RFC 6750 §3.1: a token in the header and in the query string is a bad request.
            let twice = try await Self.get(port, "/me?access_token=x", token: try Self.token(signer))
            #expect(twice.status == 400)
            #expect(twice.challenge?.contains(#"error="invalid_request""#) == true)

            let admin = try await Self.get(port, "/admin", token: try Self.token(signer, scope: "read admin"))
            #expect(admin.status == 200 && admin.body == #"{"ok":true}"#)

            let now = Int64(Date().timeIntervalSince1970)
            let refused = [
                try Self.token(signer, aud: "api://other"),
                try Self.token(signer, exp: now - 120),
                try Self.token(hmac),
            ]
            for token in refused + refused {
                let answer = try await Self.get(port, "/me", token: token)
                #expect(answer.status == 401)
                #expect(answer.challenge?.hasPrefix(#"Bearer realm="resource-server", error="invalid_token", error_description=""#) == true)
                #expect(answer.body.contains(#""error":"invalid_token""#))
                #expect(!answer.body.contains(token) && answer.challenge?.contains(token) != true)
            }
            let withinLeeway = try await Self.get(port, "/me", token: try Self.token(signer, exp: now - 20))
            #expect(withinLeeway.status == 200)
            #expect(await counter.value == 1)

            #expect(child.stop() == 0)
        }
    }

    @Test("an endless chunked JWKS body: each fetch stops at the cap and peak RSS stays under 150 MB")
    func endlessJWKSBody() async throws {
        let signer = try JWTSigner(key: try JWTKey.generate(for: .es256, keyID: "k1"))
        try await HostileBodyServer.with(.endlessChunked) { jwks in
            let child = try Child(arguments: [
                "--port", "0", "--issuer", Self.issuer, "--audience", Self.audience,
                "--jwks-url", jwks.url("/jwks").absoluteString, "--cooldown", "1", "--max-stale", "60",
            ])
            defer { _ = child.stop() }
            let line = try await child.firstLineOffPool()
            let port = Int(line.dropFirst("listening on http://127.0.0.1:".count)) ?? 0
            #expect(port > 0, "\(line)")
            // The pre-warm fetch was refused at the cap; tokens trigger more fetches (one per
            // cooldown), each against the same endless body.
            try await waitUntil("a second JWKS fetch", seconds: 60) {
                _ = try? await Self.get(port, "/me", token: try? Self.token(signer))
                try? await Task.sleep(for: .milliseconds(200))
                return jwks.requestCount >= 3
            }
            let peak = try #require(PeakRSS.sofar(of: child.running.pid))
            #expect(peak < 150 * 1024 * 1024, "peak RSS \(peak / 1024 / 1024) MB")
            #expect(child.stop() == 0)
        }
    }

    @Test("bad arguments exit 64 with one error line")
    func usage() async throws {
        let child = try Child(arguments: ["--port", "0", "--issuer", "x", "--audience", "y"])
        let outcome = try await child.running.wait(timeout: .seconds(60))
        #expect(outcome.status == 64)
        let stderr = outcome.stderrText
        #expect(stderr.contains("--jwks-url or --discovery"))
    }

    @Test("--cooldown below 1 second is a usage error (exit 64): no cooldown would make every unknown kid a fetch")
    func cooldownFloor() async throws {
        for value in ["0", "0.5", "-1", "nan"] {
            let child = try Child(arguments: ["--port", "0", "--issuer", "x", "--audience", "y",
                                              "--jwks-url", "http://127.0.0.1:9/jwks", "--cooldown=\(value)"])
            let outcome = try await child.running.wait(timeout: .seconds(60))
            #expect(outcome.status == 64, "--cooldown \(value)")
            #expect(outcome.stderrText.contains("--cooldown must be at least 1 second"), "\(outcome.stderrText)")
        }
    }

    @Test("--verified-token-cache below 0 is a usage error (exit 64)")
    func verifiedTokenCacheFloor() async throws {
        let child = try Child(arguments: ["--port", "0", "--issuer", "x", "--audience", "y",
                                          "--jwks-url", "http://127.0.0.1:9/jwks", "--verified-token-cache=-1"])
        let outcome = try await child.running.wait(timeout: .seconds(60))
        #expect(outcome.status == 64)
        #expect(outcome.stderrText.contains("--verified-token-cache must be 0 or more"), "\(outcome.stderrText)")
    }
}
#endif
