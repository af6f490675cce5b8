#if Hummingbird && Postgres
import Foundation
import HTTPServerTestSupport
import HTTPTypes
import Hummingbird
import NIOCore
import TokenKit

/// A real token endpoint and resource server for service clients on 127.0.0.1 (ephemeral
/// port), backed by ``ServiceServerState``. Routes: `POST /token`, `GET /resource`,
/// `POST /device` (device authorization), `POST /revoke` (revocation).
struct ServiceTokenServer: Sendable {
    let state: ServiceServerState
    let port: Int

    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }
    var tokenEndpoint: URL { baseURL.appendingPathComponent("token") }
    var resourceURL: URL { baseURL.appendingPathComponent("resource") }
    var deviceEndpoint: URL { baseURL.appendingPathComponent("device") }
    var revocationEndpoint: URL { baseURL.appendingPathComponent("revoke") }

    /// Starts a server whose "now" is `clock`, runs `body` with it, then stops it.
    static func with<T: Sendable>(
        clock: any TokenClock = SystemClock(),
        _ body: @escaping @Sendable (ServiceTokenServer) async throws -> T
    ) async throws -> T {
        let state = ServiceServerState(clock: clock)
        let dpopHeader = HTTPField.Name("DPoP")!
        let router = Router()
        router.post("token") { request, _ -> Response in
            let bytes = try await request.body.collect(upTo: 1 << 16)
            let answer = await state.token(
                form: FormBody.parse(String(buffer: bytes)), authorization: request.headers[.authorization],
                dpop: request.headers[dpopHeader])
            return response(answer, json: true)
        }
        router.post("device") { request, _ -> Response in
            let bytes = try await request.body.collect(upTo: 1 << 16)
            let answer = await state.device(form: FormBody.parse(String(buffer: bytes)), authorization: request.headers[.authorization])
            return response(answer, json: true)
        }
        router.post("revoke") { request, _ -> Response in
            let bytes = try await request.body.collect(upTo: 1 << 16)
            let answer = await state.revoke(form: FormBody.parse(String(buffer: bytes)), authorization: request.headers[.authorization])
            return response(answer, json: true)
        }
        router.get("resource") { request, _ -> Response in
            let answer = await state.resource(authorization: request.headers[.authorization], dpop: request.headers[dpopHeader])
            return response(answer, json: false)
        }
        return try await LocalHTTPServer.run(router, label: "service-test-server") { port in
            await state.set(baseURL: "http://127.0.0.1:\(port)")
            return try await body(ServiceTokenServer(state: state, port: port))
        }
    }

    private static func response(_ answer: ServiceServerState.Answer, json: Bool) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = json ? "application/json" : "text/plain"
        headers[.cacheControl] = "no-store"
        for (name, value) in answer.headers {
            if let field = HTTPField.Name(name) { headers.append(HTTPField(name: field, value: value)) }
        }
        return Response(status: .init(code: answer.status), headers: headers, body: .init(byteBuffer: ByteBuffer(string: answer.body)))
    }
}
#endif
