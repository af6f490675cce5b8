#if Hummingbird && Postgres
import Foundation
import HTTPServerTestSupport
import Hummingbird
import NIOCore

/// A real HTTP token endpoint and resource server on 127.0.0.1 (ephemeral port), backed by
/// ``OAuthServerState``. Routes: `POST /token`, `GET /resource`, `GET /redirect` (302 to
/// `/resource`), `POST /token-redirect` (307 to `/token`).
struct OAuthTestServer: Sendable {
    let state: OAuthServerState
    let port: Int

    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }
    var tokenEndpoint: URL { baseURL.appendingPathComponent("token") }
    var resourceURL: URL { baseURL.appendingPathComponent("resource") }

    /// Starts a server, runs `body` with it, then stops it (also when `body` throws).
    static func with<T: Sendable>(
        _ body: @escaping @Sendable (OAuthTestServer) async throws -> T
    ) async throws -> T {
        let state = OAuthServerState()
        let router = Router()
        router.post("token") { request, _ -> Response in
            let bytes = try await request.body.collect(upTo: 1 << 16)
            let form = FormBody.parse(String(buffer: bytes))
            if let streaming = await state.streamingAnswer() { return streaming.response(state: state) }
            let (status, body) = await state.token(form: form, authorization: request.headers[.authorization])
            return Response(
                status: .init(code: status),
                headers: [.contentType: body.hasPrefix("{") ? "application/json" : "text/html", .cacheControl: "no-store"],
                body: .init(byteBuffer: ByteBuffer(string: body)))
        }
        router.get("resource") { request, _ -> Response in
            let status = await state.resource(authorization: request.headers[.authorization])
            var headers = HTTPFields()
            if status == 401 { headers[.wwwAuthenticate] = #"Bearer error="invalid_token""# }
            return Response(status: .init(code: status), headers: headers, body: .init(byteBuffer: ByteBuffer(string: status == 200 ? "hello" : "")))
        }
        router.get("redirect") { _, _ -> Response in
            Response(status: .found, headers: [.location: "/resource"])
        }
        router.post("token-redirect") { _, _ -> Response in
            Response(status: .temporaryRedirect, headers: [.location: "/token"])
        }
        return try await LocalHTTPServer.run(router, label: "oauth-test-server") { port in
            let server = OAuthTestServer(state: state, port: port)
            do {
                let result = try await body(server)
                await state.openGate()
                return result
            } catch {
                await state.openGate()
                throw error
            }
        }
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

    /// The response; every byte written is counted in ``OAuthServerState/bytesStreamed``, and
    /// writing stops when the client goes away (the write throws).
    func response(state: OAuthServerState) -> Response {
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
