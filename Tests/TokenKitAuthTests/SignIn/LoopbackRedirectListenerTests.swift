#if Hummingbird && Postgres
import Foundation
import Testing
@testable import TokenKitAuth
import TokenKitTestSupport

/// The loopback listener with real local clients (issue 24 items 2–3): concurrent
/// connections, a 5 s total per request, forged callbacks ignored, the one-time start URL.
@Suite("Loopback redirect listener")
struct LoopbackRedirectListenerTests {
    /// A judge that accepts only `state=good` and ignores anything else.
    static let stateJudge: @Sendable (LoopbackRedirectListener.Callback) -> CallbackVerdict = { callback in
        callback.parameters["state"] == "good" ? .accept : .ignore("a wrong state")
    }

    /// `GET target` on a raw connection: the answer exactly as the listener wrote it.
    func get(_ port: UInt16, _ target: String) async throws -> String {
        let connection = try LoopbackConnection(port: Int(port))
        try connection.send("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        let answer = try await connection.readUntilClosed(timeout: .seconds(30))
        guard answer.closed else { throw DeadlineExceeded(what: "GET \(target): the connection was still open after 30 s") }
        return String(decoding: answer.received, as: UTF8.self)
    }

    @Test("binds 127.0.0.1 on an ephemeral port; strays get 404/400 and the first accepted callback ends the wait")
    func happyPath() async throws {
        let listener = try LoopbackRedirectListener()
        #expect(listener.port > 0)
        #expect(listener.redirectURI.absoluteString == "http://127.0.0.1:\(listener.port)/callback")
        async let callback = listener.waitForCallback(timeout: .seconds(60), judge: Self.stateJudge)
        #expect(try await get(listener.port, "/favicon.ico").hasPrefix("HTTP/1.1 404"))
        #expect(try await get(listener.port, "/callback?x=1").hasPrefix("HTTP/1.1 400"))
        #expect(try await get(listener.port, "/start/guessed").hasPrefix("HTTP/1.1 404"))
        let page = try await get(listener.port, "/callback?code=a%2Bb+c&state=good")
        #expect(page.hasPrefix("HTTP/1.1 200"))
        #expect(page.contains("You are signed in"))
        let received = try await callback
        #expect(received.parameters["code"] == "a+b c")
    }

    @Test("a forged callback (wrong or missing state) is answered 400 and ignored: the real one still signs in")
    func forgedCallbackIgnored() async throws {
        let listener = try LoopbackRedirectListener()
        async let callback = listener.waitForCallback(timeout: .seconds(60), judge: Self.stateJudge)
        let forged = try await get(listener.port, "/callback?code=attacker&state=bad")
        #expect(forged.hasPrefix("HTTP/1.1 400"))
        #expect(forged.contains("It was ignored"))
        #expect(try await get(listener.port, "/callback?code=attacker").hasPrefix("HTTP/1.1 400"))
        #expect(try await get(listener.port, "/callback?code=real&state=good").hasPrefix("HTTP/1.1 200"))
        #expect(try await callback.parameters["code"] == "real")
    }

    @Test("the start URL redirects once to the authorization URL; a second request gets 410 and ends the sign-in")
    func startURLOnce() async throws {
        let listener = try LoopbackRedirectListener()
        let destination = try #require(URL(string: "https://id.example/authorize?state=s&code_challenge=c"))
        let start = try listener.startURL(redirectingTo: destination)
        #expect(start.absoluteString.hasPrefix("http://127.0.0.1:\(listener.port)/start/"))
        #expect(start.path.count == "/start/".count + 43)
        let wait = Task { try await listener.waitForCallback(timeout: .seconds(60), judge: Self.stateJudge) }
        let first = try await get(listener.port, start.path)
        #expect(first.hasPrefix("HTTP/1.1 302"))
        #expect(first.contains("\r\nLocation: \(destination.absoluteString)\r\n"))
        let second = try await get(listener.port, start.path)
        #expect(second.hasPrefix("HTTP/1.1 410"))
        let error = await #expect(throws: AuthError.self) { try await withDeadline("the wait") { try await wait.value } }
        #expect(error?.code == .startURLReused)
        #expect(error?.message.contains("opened a second time") == true)
    }

    @Test("a client sending four bytes a second is cut off 5 s after connecting, while others are served at once")
    func slowClientCutOff() async throws {
        let listener = try LoopbackRedirectListener()
        async let callback = listener.waitForCallback(timeout: .seconds(120), judge: Self.stateJudge)
        let slow = try LoopbackConnection(port: Int(listener.port))
        let dripping = Task.detached {
            // A byte every 250 ms of a request that never ends: with a per-read timeout it would
            // be held for its whole length (60 s); with 5 s in total it is closed after ~20 bytes.
            var sent = 0
            for byte in Array("GET /callback?code=slow&state=good".utf8) + Array(repeating: UInt8(ascii: "x"), count: 206) {
                guard (try? slow.send([byte])) != nil else { break }
                sent += 1
                try await Task.sleep(for: .milliseconds(250))
            }
            return sent
        }
        // Idle connections that never send a byte do not hold anyone up either: a (forged)
        // callback is answered at once while the slow client and the idle ones are connected.
        let idle = try (0..<20).map { _ in try LoopbackConnection(port: Int(listener.port)) }
        #expect(try await get(listener.port, "/callback?code=forged&state=bad").hasPrefix("HTTP/1.1 400"))
        // The wait is still on: the slow client is cut off by the listener, not by its end.
        let sent = try await withDeadline("the slow client's cut-off", seconds: 120) { try await dripping.value }
        #expect(sent < 120, "the slow client was served \(sent) bytes, a quarter second apart")
        withExtendedLifetime(idle) {}
        #expect(try await get(listener.port, "/callback?code=real&state=good").hasPrefix("HTTP/1.1 200"))
        #expect(try await callback.parameters["code"] == "real")
    }

    @Test("a slow client alone cannot stretch the wait: it ends at the timeout")
    func slowClientCannotStretchTheTimeout() async throws {
        let listener = try LoopbackRedirectListener()
        let slow = try LoopbackConnection(port: Int(listener.port))
        let dripping = Task.detached {
            for _ in 0..<120 {
                guard (try? slow.send([UInt8(ascii: "G")])) != nil else { return }
                try await Task.sleep(for: .milliseconds(500))
            }
        }
        defer { dripping.cancel() }
        let error = await #expect(throws: AuthError.self) {
            try await withDeadline("a 2 s wait beside a slow client", seconds: 30) {
                try await listener.waitForCallback(timeout: .seconds(2), judge: Self.stateJudge)
            }
        }
        #expect(error?.code == .signInExpired)
    }

    @Test("more idle connections than the listener keeps open: the oldest are dropped and a real callback still gets through")
    func connectionFlood() async throws {
        let listener = try LoopbackRedirectListener()
        async let callback = listener.waitForCallback(timeout: .seconds(60), judge: Self.stateJudge)
        let flood = try (0..<(LoopbackServeLoop.maximumConnections + 40)).map { _ in try LoopbackConnection(port: Int(listener.port)) }
        // Dropped for the newer ones well before its own 5 s would have run out.
        #expect(try await flood.first?.readUntilClosed(timeout: .seconds(3)).closed == true, "the oldest idle connection was not dropped for the new ones")
        #expect(try await get(listener.port, "/callback?code=real&state=good").hasPrefix("HTTP/1.1 200"))
        #expect(try await callback.parameters["code"] == "real")
    }

    @Test("state, iss, repeated parameters and error responses are judged before any exchange")
    func judging() {
        enum Verdict: Equatable { case accept, ignore, refuse(AuthError.Code) }
        func judge(_ query: [String: String], duplicated: Set<String> = [], requireIssuer: Bool = false) -> Verdict {
            let verdict = AuthorizationCodeSignIn.judge(
                .init(parameters: query, duplicated: duplicated), state: "good", issuer: "https://issuer.example", requireIssuer: requireIssuer)
            switch verdict.outcome {
            case .accept: return .accept
            case .ignore: return .ignore
            case .refuse(let error): return .refuse(error.code)
            }
        }
        #expect(judge(["code": "c", "state": "good"]) == .accept)
        #expect(judge(["code": "c", "state": "good", "iss": "https://issuer.example"]) == .accept)
        // Not this sign-in's answer: ignored, the listener keeps waiting.
        #expect(judge(["code": "c", "state": "bad"]) == .ignore)
        #expect(judge(["code": "c"]) == .ignore)
        #expect(judge(["error": "access_denied", "state": "bad"]) == .ignore)
        #expect(judge(["code": "c", "state": "good"], duplicated: ["state"]) == .ignore)
        // This sign-in's answer, and it failed.
        #expect(judge(["code": "c", "state": "good", "iss": "https://evil.example"]) == .refuse(.responseMismatch))
        #expect(judge(["code": "c", "state": "good"], requireIssuer: true) == .refuse(.responseMismatch))
        #expect(judge(["code": "c", "state": "good", "iss": "https://issuer.example"], requireIssuer: true) == .accept)
        // An error without iss redeems nothing: it ends the sign-in as the error it is.
        #expect(judge(["error": "access_denied", "state": "good"], requireIssuer: true) == .refuse(.accessDenied))
        #expect(judge(["error": "access_denied", "state": "good", "iss": "https://evil.example"], requireIssuer: true) == .refuse(.responseMismatch))
        #expect(judge(["code": "c", "state": "good"], duplicated: ["code"]) == .refuse(.responseMismatch))
        #expect(judge(["error": "access_denied", "state": "good"]) == .refuse(.accessDenied))
        #expect(judge(["error": "invalid_scope", "state": "good"]) == .refuse(.authorizationFailed))
        #expect(judge(["code": "", "state": "good"]) == .refuse(.authorizationFailed))
    }

    @Test("query decoding refuses bad escapes and non-UTF-8, and reports repeated names")
    func queryDecoding() throws {
        #expect(QueryDecoding.decode("a=%zz") == nil)
        #expect(QueryDecoding.decode("a=%ff") == nil)
        let decoded = try #require(QueryDecoding.decode("a=1&a=2&b=%41+"))
        #expect(decoded.duplicated == ["a"])
        #expect(decoded.parameters["b"] == "A ")
    }
}
#endif
