#if Hummingbird && Postgres
import Foundation
import Testing
import TokenKitAuth
import TokenKitStore
import TokenKitTestSupport

/// A transport that answers from a script (one step per request) and records the requests.
final class ScriptedTransport: HTTPTransport, @unchecked Sendable {
    // @unchecked: `steps` and `sent` are read and written only while `mutex` is held.
    enum Step: Sendable {
        case answer(Int, String)
        /// Never answers: waits until the request's task is cancelled.
        case hang
    }

    private let mutex = NSLock()
    private var steps: [Step]
    private var sent: [HTTPTransportRequest] = []

    init(_ steps: [Step]) { self.steps = steps }

    var requests: [HTTPTransportRequest] { mutex.withLock { sent } }

    /// Adds answers after the ones already scripted (for answers built once a flow has begun,
    /// e.g. an ID token carrying the nonce the flow just made).
    func enqueue(_ more: [Step]) { mutex.withLock { steps += more } }

    func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse {
        let step = mutex.withLock {
            sent.append(request)
            return steps.isEmpty ? Step.answer(500, "script exhausted") : steps.removeFirst()
        }
        switch step {
        case .answer(let status, let body):
            return HTTPTransportResponse(status: status, headers: [HTTPHeader(name: "Content-Type", value: "application/json")], body: Array(body.utf8))
        case .hang:
            while true { try await Task.sleep(for: .seconds(3600)) }
        }
    }
}

/// A sleeper that does not wait: it records each requested pause and moves the clock by it.
final class RecordingSleeper: @unchecked Sendable {
    // @unchecked: `pauses` is read and written only while `mutex` is held.
    private let mutex = NSLock()
    private var pauses: [Int64] = []
    let clock: ManualClock

    init(clock: ManualClock) { self.clock = clock }

    var seconds: [Int64] { mutex.withLock { pauses } }

    func sleep(_ duration: Duration) {
        mutex.withLock { pauses.append(duration.components.seconds) }
        clock.advance(by: .seconds(duration.components.seconds))
    }
}

/// The device authorization grant's failure paths (RFC 8628 §3.5) with a scripted server, an
/// injected clock and a sleeper that only records: no test waits for real polling intervals.
@Suite("Device authorization grant: slow_down, pending, expiry, denial, cancellation")
struct DeviceCodeFailureTests {
    static func configuration() throws -> LoginConfiguration {
        try LoginConfiguration(
            tokenEndpoint: try #require(URL(string: "https://id.example/token")),
            deviceAuthorizationEndpoint: URL(string: "https://id.example/device"), clientID: "app")
    }

    static func device(expiresIn: Int = 600, interval: Int = 5) -> ScriptedTransport.Step {
        .answer(200, #"{"device_code":"dc-1","user_code":"WDJB-MJHT","verification_uri":"https://id.example/activate","expires_in":\#(expiresIn),"interval":\#(interval)}"#)
    }

    static func error(_ code: String) -> ScriptedTransport.Step { .answer(400, #"{"error":"\#(code)"}"#) }
    static let pending = error("authorization_pending")
    static let slowDown = error("slow_down")
    static let granted = ScriptedTransport.Step.answer(200, #"{"access_token":"at-1","token_type":"Bearer","expires_in":3600,"refresh_token":"rt-1"}"#)

    /// Starts a flow over `steps` (the first answers the device authorization request).
    func run(_ steps: [ScriptedTransport.Step]) async throws -> (Result<TokenSet, AuthError>, ScriptedTransport, RecordingSleeper) {
        let transport = ScriptedTransport(steps)
        let clock = ManualClock()
        let sleeper = RecordingSleeper(clock: clock)
        let flow = try DeviceCodeSignIn(
            configuration: try Self.configuration(), scopes: [], transport: transport, clock: clock, sleep: { sleeper.sleep($0) })
        let authorization = try await flow.start()
        do {
            return (.success(try await flow.waitForApproval(authorization)), transport, sleeper)
        } catch {
            return (.failure(error), transport, sleeper)
        }
    }

    func polls(_ transport: ScriptedTransport) -> [HTTPTransportRequest] {
        transport.requests.filter { $0.url.path == "/token" }
    }

    @Test("slow_down bursts add 5 s to the interval each time, for good; authorization_pending keeps it")
    func slowDownBursts() async throws {
        let (result, transport, sleeper) = try await run([
            Self.device(), Self.pending, Self.slowDown, Self.slowDown, Self.slowDown, Self.pending, Self.granted,
        ])
        #expect(try result.get().accessToken == "at-1")
        #expect(sleeper.seconds == [5, 5, 10, 15, 20, 20])
        #expect(polls(transport).count == 6)
        for poll in polls(transport) {
            let body = String(decoding: poll.body, as: UTF8.self)
            #expect(body.contains("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Adevice_code") && body.contains("device_code=dc-1"))
        }
    }

    @Test("the server's interval is honoured up to 5 minutes, and slow_down grows it up to 5 minutes")
    func longIntervals() async throws {
        let (result, _, sleeper) = try await run([Self.device(interval: 120), Self.pending, Self.granted])
        #expect(try result.get().accessToken == "at-1")
        #expect(sleeper.seconds == [120, 120])
        let (capped, _, cappedSleeper) = try await run([Self.device(expiresIn: 3000, interval: 1000), Self.slowDown, Self.granted])
        #expect(try capped.get().accessToken == "at-1")
        #expect(cappedSleeper.seconds == [300, 300])
    }

    @Test("verification URIs are shown only when https (or http on loopback): anything else is refused",
          arguments: ["http://evil.example/activate", "javascript:alert(1)", "file:///etc/passwd", "https://user:pw@id.example/activate", "id.example/activate"])
    func unsafeVerificationURI(uri: String) async throws {
        for member in ["verification_uri", "verification_uri_complete"] {
            let safe = member == "verification_uri" ? "" : #""verification_uri":"https://id.example/activate","#
            let transport = ScriptedTransport([.answer(200, #"{"device_code":"dc-1","user_code":"WDJB-MJHT",\#(safe)"\#(member)":"\#(uri)","expires_in":600}"#)])
            let flow = try DeviceCodeSignIn(configuration: try Self.configuration(), scopes: [], transport: transport)
            let error = await #expect(throws: AuthError.self) { try await flow.start() }
            #expect(error?.code == .invalidResponse)
            #expect(error?.message.contains("unsafe \"\(member)\"") == true, "\(error?.message ?? "")")
            #expect(error?.message.contains(uri) == false)
        }
        let loopback = ScriptedTransport([.answer(200, #"{"device_code":"dc-1","user_code":"WDJB-MJHT","verification_uri":"http://127.0.0.1:8080/activate","expires_in":600}"#)])
        let accepted = try await DeviceCodeSignIn(configuration: try Self.configuration(), scopes: [], transport: loopback).start()
        #expect(accepted.verificationURI == "http://127.0.0.1:8080/activate")
    }

    @Test("every device request asks the transport to stop reading at 64 KiB")
    func responseCaps() async throws {
        let (result, transport, _) = try await run([Self.device(), Self.pending, Self.granted])
        _ = try result.get()
        #expect(transport.requests.count == 3)
        #expect(transport.requests.allSatisfy { $0.maxResponseBytes == 64 * 1024 })
    }

    @Test("authorization_pending polls at the server's interval until the grant")
    func pendingThenGranted() async throws {
        let (result, _, sleeper) = try await run([Self.device(interval: 7), Self.pending, Self.pending, Self.pending, Self.granted])
        #expect(try result.get().refreshToken == "rt-1")
        #expect(sleeper.seconds == [7, 7, 7, 7])
    }

    @Test("expired_token ends the sign-in as expired, without another poll")
    func expiredToken() async throws {
        let (result, transport, _) = try await run([Self.device(), Self.pending, Self.error("expired_token"), Self.granted])
        guard case .failure(let error) = result else { Issue.record("expected a failure"); return }
        #expect(error.code == .signInExpired)
        #expect(error.oauthError == "expired_token")
        #expect(polls(transport).count == 2)
    }

    @Test("access_denied is a distinct error, not a generic failure")
    func accessDenied() async throws {
        let (result, transport, _) = try await run([Self.device(), Self.error("access_denied"), Self.granted])
        guard case .failure(let error) = result else { Issue.record("expected a failure"); return }
        #expect(error.code == .accessDenied)
        #expect(polls(transport).count == 1)
    }

    @Test("another OAuth error (invalid_client) is an authorization failure naming it")
    func otherOAuthError() async throws {
        let (result, _, _) = try await run([Self.device(), Self.error("invalid_client")])
        guard case .failure(let error) = result else { Issue.record("expected a failure"); return }
        #expect(error.code == .authorizationFailed)
        #expect(error.oauthError == "invalid_client")
    }

    @Test("when the device code's lifetime passes while pending, polling stops as expired")
    func lifetimePasses() async throws {
        let (result, transport, sleeper) = try await run([Self.device(expiresIn: 12, interval: 5), Self.pending, Self.pending, Self.granted])
        guard case .failure(let error) = result else { Issue.record("expected a failure"); return }
        #expect(error.code == .signInExpired)
        #expect(sleeper.seconds == [5, 5, 5])
        #expect(polls(transport).count == 2)
    }

    @Test("cancelling the task while it waits between polls ends it as cancelled, before the next poll")
    func cancelledWhileWaiting() async throws {
        let transport = ScriptedTransport([Self.device(), Self.pending, Self.granted])
        // The first pause passes at once; the second (after the pending poll) really waits,
        // and says so: the test cancels only once the flow is inside that wait.
        let pauses = Pauses()
        let flow = try DeviceCodeSignIn(configuration: try Self.configuration(), scopes: [], transport: transport, sleep: { _ in
            guard pauses.begin() > 1 else { return }
            try await Task.sleep(for: .seconds(3600))
        })
        let authorization = try await flow.start()
        let task = Task { try await flow.waitForApproval(authorization) }
        try await waitUntil("the flow waits between polls") { pauses.count == 2 }
        task.cancel()
        let error = await #expect(throws: AuthError.self) { try await withDeadline("cancelled flow") { try await task.value } }
        #expect(error?.code == .cancelled)
        #expect(polls(transport).count == 1, "the pending poll only: the granted answer is never asked for")
    }

    /// Counts the pauses a flow began.
    final class Pauses: @unchecked Sendable {
        // @unchecked: `begun` is read and written only while `mutex` is held.
        private let mutex = NSLock()
        private var begun = 0
        var count: Int { mutex.withLock { begun } }
        /// Records one more pause; returns how many have begun.
        func begin() -> Int { mutex.withLock { begun += 1; return begun } }
    }

    @Test("a token endpoint that never answers is left when the task is cancelled (the caller's overall deadline)")
    func cancelledDuringAHungPoll() async throws {
        let transport = ScriptedTransport([Self.device(), .hang])
        let clock = ManualClock()
        let sleeper = RecordingSleeper(clock: clock)
        let flow = try DeviceCodeSignIn(configuration: try Self.configuration(), scopes: [], transport: transport, clock: clock, sleep: { sleeper.sleep($0) })
        let authorization = try await flow.start()
        let task = Task { try await flow.waitForApproval(authorization) }
        try await waitUntil("the poll is in flight") { transport.requests.count == 2 }
        task.cancel()
        let error = await #expect(throws: AuthError.self) { try await withDeadline("hung poll") { try await task.value } }
        #expect(error?.code == .cancelled)
    }
}
#endif
