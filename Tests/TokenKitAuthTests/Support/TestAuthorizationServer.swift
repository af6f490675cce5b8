#if Hummingbird && Postgres
import Foundation
import HTTPServerTestSupport
import HTTPTypes
import Hummingbird
import NIOCore
import TokenKit

/// The tests' one authorization server: a real HTTP authorization server, OpenID provider and
/// resource server on 127.0.0.1 (ephemeral port) over ``AuthorizationServerState``, its issuer
/// `http://127.0.0.1:PORT`. Routes: `GET /.well-known/openid-configuration`, `GET /jwks`,
/// `GET /authorize`, `POST /token`, `POST /device` (device authorization), `POST /revoke`
/// (revocation), `GET /resource`, `GET /redirect` (302 to `/resource`) and
/// `POST /token-redirect` (307 to `/token`).
struct TestAuthorizationServer: Sendable {
    let state: AuthorizationServerState
    let port: Int

    var baseURL: URL { URL(string: issuer)! }
    /// The issuer (OpenID discovery, ID tokens, RFC 9207 `iss`).
    var issuer: String { "http://127.0.0.1:\(port)" }
    var tokenEndpoint: URL { baseURL.appendingPathComponent("token") }
    var resourceURL: URL { baseURL.appendingPathComponent("resource") }
    var deviceEndpoint: URL { baseURL.appendingPathComponent("device") }
    var revocationEndpoint: URL { baseURL.appendingPathComponent("revoke") }

    /// Starts a server whose "now" (for client assertions and DPoP proofs) is `clock`, runs
    /// `body` with it, then opens the token gate and stops the server (also when `body` throws).
    static func with<T: Sendable>(
        clock: any TokenClock = SystemClock(),
        _ body: @escaping @Sendable (TestAuthorizationServer) async throws -> T
    ) async throws -> T {
        let state = try AuthorizationServerState(clock: clock)
        let dpopHeader = HTTPField.Name("DPoP")!
        let router = Router()
        router.get(".well-known/openid-configuration") { _, _ in
            response(.init(status: 200, body: await state.discovery()), contentType: "application/json")
        }
        router.get("jwks") { _, _ in
            response(.init(status: 200, body: try await state.jwks()), contentType: "application/json")
        }
        router.get("authorize") { request, _ -> Response in
            var query: [String: String] = [:]
            for item in URLComponents(string: "http://x\(request.uri)")?.queryItems ?? [] { query[item.name] = item.value ?? "" }
            let (status, location) = await state.authorize(query)
            var headers = HTTPFields()
            if let location { headers[.location] = location }
            return Response(status: .init(code: status), headers: headers)
        }
        router.post("token") { request, _ -> Response in
            let form = try await Self.form(request)
            if let streaming = await state.streamingAnswer() { return streaming.response(state: state) }
            let answer = await state.token(form: form, authorization: request.headers[.authorization], dpop: request.headers[dpopHeader])
            return response(answer, contentType: answer.body.hasPrefix("{") ? "application/json" : "text/html")
        }
        router.post("device") { request, _ -> Response in
            let answer = await state.device(form: try await Self.form(request), authorization: request.headers[.authorization])
            return response(answer, contentType: "application/json")
        }
        router.post("revoke") { request, _ -> Response in
            let answer = await state.revoke(form: try await Self.form(request), authorization: request.headers[.authorization])
            return response(answer, contentType: "application/json")
        }
        router.get("resource") { request, _ -> Response in
            let answer = await state.resource(authorization: request.headers[.authorization], dpop: request.headers[dpopHeader])
            return response(answer, contentType: "text/plain")
        }
        router.get("redirect") { _, _ -> Response in
            Response(status: .found, headers: [.location: "/resource"])
        }
        router.post("token-redirect") { _, _ -> Response in
            Response(status: .temporaryRedirect, headers: [.location: "/token"])
        }
        return try await LocalHTTPServer.run(router, label: "test-authorization-server") { port in
            await state.set(baseURL: "http://127.0.0.1:\(port)")
            do {
                let result = try await body(TestAuthorizationServer(state: state, port: port))
                await state.openGate()
                return result
            } catch {
                await state.openGate()
                throw error
            }
        }
    }

    /// The request's `application/x-www-form-urlencoded` body (up to 64 KiB).
    private static func form(_ request: Request) async throws -> [String: String] {
        FormBody.parse(String(buffer: try await request.body.collect(upTo: 1 << 16)))
    }

    private static func response(_ answer: AuthorizationServerState.Answer, contentType: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = contentType
        headers[.cacheControl] = "no-store"
        for (name, value) in answer.headers {
            if let field = HTTPField.Name(name) { headers.append(HTTPField(name: field, value: value)) }
        }
        return Response(status: .init(code: answer.status), headers: headers, body: .init(byteBuffer: ByteBuffer(string: answer.body)))
    }
}

/// Token endpoint answers that are streamed rather than sent whole (hostile servers).
enum StreamingAnswer: Sendable {
    /// One space a second for up to two minutes: never a complete answer within a deadline.
    case drip
    /// 4 GiB of spaces, 64 KiB at a time, as fast as the client reads: far more than a client
    /// that stops at its cap lets through before its connection closes (AsyncHTTPClient has
    /// let a few hundred MiB through on loopback before closing), yet finite.
    case endless

    /// The response; every byte written is counted in ``AuthorizationServerState/bytesStreamed``, and
    /// writing stops when the client goes away (the write throws).
    func response(state: AuthorizationServerState) -> Response {
        let body: ResponseBody
        switch self {
        case .drip:
            body = ResponseBody { writer in
                for _ in 0..<120 {
                    try await writer.write(ByteBuffer(string: " "))
                    await state.addStreamed(1)
                    try await Task.sleep(for: .seconds(1))
                }
                try await writer.finish(nil)
            }
        case .endless:
            body = ResponseBody { writer in
                let chunk = ByteBuffer(repeating: UInt8(ascii: " "), count: 1 << 16)
                for _ in 0..<(1 << 16) {
                    try await writer.write(chunk)
                    await state.addStreamed(chunk.readableBytes)
                }
                try await writer.finish(nil)
            }
        }
        return Response(status: .ok, headers: [.contentType: "application/json"], body: body)
    }
}

/// Parses `application/x-www-form-urlencoded` bodies (test side, written independently of the library).
enum FormBody {
    static func parse(_ text: String) -> [String: String] {
        var out: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { continue }
            out[decode(parts[0])] = decode(parts[1])
        }
        return out
    }

    static func decode(_ text: Substring) -> String {
        String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
    }
}
#endif
