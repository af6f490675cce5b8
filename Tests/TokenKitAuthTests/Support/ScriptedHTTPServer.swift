#if Hummingbird && Postgres
import Foundation
import HTTPServerTestSupport
import HTTPTypes
import Hummingbird
import NIOCore

/// One scripted answer of ``ScriptedHTTPServer``.
struct ScriptedResponse: Sendable {
    var status: Int = 200
    var headers: [(String, String)] = []
    var body: [UInt8] = []
    /// Seconds to wait before answering (a slow server).
    var delay: Double = 0

    static func json(_ text: String, headers: [(String, String)] = []) -> ScriptedResponse {
        ScriptedResponse(status: 200, headers: [("Content-Type", "application/json")] + headers, body: Array(text.utf8))
    }
}

/// What a ``ScriptedHTTPServer`` answers, per path, and what it saw.
actor ScriptedServerState {
    typealias Handler = @Sendable (_ ifNoneMatch: String?) -> ScriptedResponse
    private var handlers: [String: Handler] = [:]
    private var counts: [String: Int] = [:]
    private(set) var lastIfNoneMatch: [String: String] = [:]

    func set(_ path: String, _ handler: @escaping Handler) { handlers[path] = handler }
    func set(_ path: String, _ response: ScriptedResponse) { handlers[path] = { _ in response } }
    func count(_ path: String) -> Int { counts[path, default: 0] }

    func answer(path: String, ifNoneMatch: String?) -> ScriptedResponse {
        counts[path, default: 0] += 1
        if let ifNoneMatch { lastIfNoneMatch[path] = ifNoneMatch }
        return handlers[path]?(ifNoneMatch) ?? ScriptedResponse(status: 404)
    }
}

/// A real HTTP server on 127.0.0.1 (ephemeral port) whose GET and POST answers are scripted per path
/// through ``ScriptedServerState``; it counts the requests it receives.
struct ScriptedHTTPServer: Sendable {
    let state: ScriptedServerState
    let port: Int

    var baseURL: String { "http://127.0.0.1:\(port)" }
    func url(_ path: String) -> URL { URL(string: baseURL + path)! }

    /// Starts a server, runs `body` with it, then stops it (also when `body` throws).
    static func with<T: Sendable>(_ body: @escaping @Sendable (ScriptedHTTPServer) async throws -> T) async throws -> T {
        let state = ScriptedServerState()
        let router = Router()
        let handler: @Sendable (Request, BasicRequestContext) async throws -> Response = { request, _ in
            let answer = await state.answer(path: request.uri.path, ifNoneMatch: request.headers[.ifNoneMatch])
            if answer.delay > 0 { try? await Task.sleep(for: .milliseconds(Int(answer.delay * 1000))) }
            var fields = HTTPFields()
            for (name, value) in answer.headers {
                if let field = HTTPField.Name(name) { fields.append(HTTPField(name: field, value: value)) }
            }
            return Response(status: .init(code: answer.status), headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: answer.body)))
        }
        router.get("**", use: handler)
        router.post("**", use: handler)
        return try await LocalHTTPServer.run(router, label: "scripted-test-server") { port in
            try await body(ScriptedHTTPServer(state: state, port: port))
        }
    }
}
#endif
