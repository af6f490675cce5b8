import AsyncHTTPClient
import JWTKit

/// The key set of both comparison servers: the JWKS at `url`, fetched once at start-up
/// (the benchmark's issuer serves it with `max-age=3600`; `resource-server` too fetches it
/// once, then serves from its cache).
public func fetchKeys(from url: String) async throws -> JWTKeyCollection {
    let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(10))
    guard response.status == .ok else { fail("JWKS fetch answered \(response.status.code)") }
    let body = try await response.body.collect(upTo: 1 << 20)
    let keys = JWTKeyCollection()
    try await keys.add(jwksJSON: String(buffer: body))
    return keys
}
