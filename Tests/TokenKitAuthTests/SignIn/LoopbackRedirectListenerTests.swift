import Foundation
import Testing
@testable import TokenKitAuth
import TokenKitURLSession

@Suite("Loopback redirect listener")
struct LoopbackRedirectListenerTests {
    @Test("Binds 127.0.0.1 on an ephemeral port and returns the first callback with a code")
    func happyPath() async throws {
        let listener = try LoopbackRedirectListener()
        #expect(listener.port > 0)
        #expect(listener.redirectURI.absoluteString == "http://127.0.0.1:\(listener.port)/callback")
        async let callback = listener.waitForCallback(timeout: .seconds(20)) { _ in nil }
        // Stray requests first: another path, and a callback with neither code nor error.
        let stray = try await URLSessionTransport(timeout: .seconds(10)).send(HTTPTransportRequest(url: URL(string: "http://127.0.0.1:\(listener.port)/favicon.ico")!))
        #expect(stray.status == 404)
        let empty = try await URLSessionTransport(timeout: .seconds(10)).send(HTTPTransportRequest(url: URL(string: "http://127.0.0.1:\(listener.port)/callback?x=1")!))
        #expect(empty.status == 400)
        let page = try await URLSessionTransport(timeout: .seconds(10)).send(HTTPTransportRequest(url: URL(string: "http://127.0.0.1:\(listener.port)/callback?code=a%2Bb+c&state=s")!))
        #expect(page.status == 200)
        #expect(String(decoding: page.body, as: UTF8.self).contains("You are signed in"))
        let received = try await callback
        #expect(received.parameters["code"] == "a+b c")
        #expect(received.parameters["state"] == "s")
    }

    @Test("A user who never comes back ends in sign-in-expired after the timeout")
    func timeout() async throws {
        let listener = try LoopbackRedirectListener()
        let start = ContinuousClock.now
        await #expect(throws: AuthError.self) { try await listener.waitForCallback(timeout: .milliseconds(300)) { _ in nil } }
        #expect(ContinuousClock.now - start < .seconds(10))
    }

    @Test("state, iss, repeated parameters and error responses are judged before any exchange")
    func judging() {
        func judge(_ query: [String: String], duplicated: Set<String> = []) -> AuthError.Code? {
            AuthorizationCodeSignIn.judge(.init(parameters: query, duplicated: duplicated), state: "good", issuer: "https://issuer.example")?.code
        }
        #expect(judge(["code": "c", "state": "good"]) == nil)
        #expect(judge(["code": "c", "state": "good", "iss": "https://issuer.example"]) == nil)
        #expect(judge(["code": "c", "state": "bad"]) == .responseMismatch)
        #expect(judge(["code": "c"]) == .responseMismatch)
        #expect(judge(["code": "c", "state": "good", "iss": "https://evil.example"]) == .responseMismatch)
        #expect(judge(["code": "c", "state": "good"], duplicated: ["code"]) == .responseMismatch)
        #expect(judge(["error": "access_denied", "state": "good"]) == .accessDenied)
        #expect(judge(["error": "invalid_scope", "state": "good"]) == .authorizationFailed)
        #expect(judge(["code": "", "state": "good"]) == .authorizationFailed)
        // An error response with a forged state is a mismatch, not a denial.
        #expect(judge(["error": "access_denied", "state": "bad"]) == .responseMismatch)
    }

    @Test("Query decoding refuses bad escapes and non-UTF-8, and reports repeated names")
    func queryDecoding() throws {
        #expect(QueryDecoding.decode("a=%zz") == nil)
        #expect(QueryDecoding.decode("a=%ff") == nil)
        let decoded = try #require(QueryDecoding.decode("a=1&a=2&b=%41+"))
        #expect(decoded.duplicated == ["a"])
        #expect(decoded.parameters["b"] == "A ")
    }
}
