#if Hummingbird && Postgres
import Foundation
import TokenKit
import TokenKitAuth

/// Signing keys and the JWKS documents a test server publishes for them.
struct TestSigningKey: Sendable {
    let key: JWTKey
    let signer: JWTSigner

    init(kid: String, algorithm: JWTAlgorithm = .es256) throws {
        key = try JWTKey.generate(for: algorithm, keyID: kid)
        signer = try JWTSigner(key: key)
    }

    /// A token with `exp` one hour ahead and the given extra claims.
    func token(issuer: String? = nil, claims: [(String, JSONValue)] = []) throws -> String {
        var object = JSONObject([("sub", .string("user-1")), ("exp", .number(JSONNumber(Int64(Date().timeIntervalSince1970) + 3600)))])
        if let issuer { object["iss"] = .string(issuer) }
        for (name, value) in claims { object[name] = value }
        return try signer.sign(JWTClaims(object))
    }

    static func jwks(_ keys: [TestSigningKey]) throws -> String {
        let entries = try keys.map { try $0.key.publicKey().jwk() }
        return "{\"keys\":[" + entries.joined(separator: ",") + "]}"
    }
}
extension RemoteFetchOptions {
    /// The fetch options of tests about something other than deadlines (key admission,
    /// metrics, spans): the default 10 s deadline, missed in CI when hundreds of parallel
    /// cases share two cores, becomes 60 s. The deadline itself is pinned by FetchGateTests and
    /// RemoteJWKSTests.
    static let unhurried = RemoteFetchOptions(timeout: .seconds(60))
}
#endif
