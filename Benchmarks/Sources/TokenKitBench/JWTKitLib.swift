import BenchCore
import JWTKit
import Foundation

/// vapor/jwt-kit 5, the comparison.
struct JKPayload: JWTPayload, Equatable {
    var sub: SubjectClaim
    var iss: IssuerClaim
    var aud: AudienceClaim
    var iat: IssuedAtClaim
    var exp: ExpirationClaim
    var name: String
    var roles: [String]
    var tenant: String

    func verify(using algorithm: some JWTAlgorithm) async throws {
        try exp.verifyNotExpired()
        try aud.verifyIntendedAudience(includes: Claims.audience)
        guard iss.value == Claims.issuer else {
            throw JWTError.claimVerificationFailure(failedClaim: iss, reason: "wrong issuer")
        }
    }
}

enum JWTKitLib {
    static func payload() -> JKPayload {
        let (iat, exp) = Claims.times()
        return JKPayload(
            sub: SubjectClaim(value: Claims.subject), iss: IssuerClaim(value: Claims.issuer),
            aud: AudienceClaim(value: [Claims.audience]),
            iat: IssuedAtClaim(value: Date(timeIntervalSince1970: Double(iat))),
            exp: ExpirationClaim(value: Date(timeIntervalSince1970: Double(exp))),
            name: Claims.name, roles: Claims.roles, tenant: Claims.tenant)
    }

    static func keys(_ m: KeyMaterial) async throws -> JWTKeyCollection {
        let keys = JWTKeyCollection()
        switch m.alg {
        case .hs256: await keys.add(hmac: HMACKey(from: m.secret), digestAlgorithm: .sha256)
        case .rs256: await keys.add(rsa: try Insecure.RSA.PrivateKey(pem: m.privatePEM), digestAlgorithm: .sha256)
        case .ps256: await keys.add(pss: try Insecure.RSA.PrivateKey(pem: m.privatePEM), digestAlgorithm: .sha256)
        case .es256: await keys.add(ecdsa: try ES256PrivateKey(pem: m.privatePEM))
        case .es384: await keys.add(ecdsa: try ES384PrivateKey(pem: m.privatePEM))
        case .eddsa: await keys.add(eddsa: try EdDSA.PrivateKey(pem: m.privatePEM))
        }
        return keys
    }

    static func makeCase(_ m: KeyMaterial) async throws -> (Case, token: String) {
        let keys = try await keys(m)
        let payload = payload()
        let token = try await keys.sign(payload)
        let back = try await keys.verify(token, as: JKPayload.self)
        precondition(back.sub == payload.sub)
        var c = Case()
        c.asyncSign = { _ = try await keys.sign(payload) }
        c.asyncVerify = { _ = try await keys.verify(token, as: JKPayload.self) }
        c.asyncDecode = { _ = try await keys.unverified(token, as: JKPayload.self) }
        return (c, token)
    }

    /// A verify loop over a stream of distinct tokens (made by TokenKit with the same key).
    static func distinctCase(_ m: KeyMaterial, tokens: [String]) async throws -> () async throws -> Void {
        let keys = try await keys(m)
        for token in tokens.prefix(100) { _ = try await keys.verify(token, as: JKPayload.self) }  // sanity
        let cursor = StreamCursor(tokens)
        return { _ = try await keys.verify(cursor.next(), as: JKPayload.self) }
    }
}
