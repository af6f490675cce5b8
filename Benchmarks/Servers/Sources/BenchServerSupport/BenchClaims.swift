import JWTKit

/// The claims of the benchmark's tokens (Benchmarks/wrk-jwks.py), checked the way jwt-kit
/// users check them: `exp`, `aud` and `iss` in `verify(using:)` — the same three checks
/// `resource-server` makes (its signature check is jwt-kit's, with the key's `alg`).
public struct BenchClaims: JWTPayload, Equatable {
    public var sub: SubjectClaim
    public var iss: IssuerClaim
    public var aud: AudienceClaim
    public var exp: ExpirationClaim
    public var iat: IssuedAtClaim?
    public var scope: String?
    public var jti: IDClaim?

    public func verify(using algorithm: some JWTAlgorithm) async throws {
        try exp.verifyNotExpired()
        try aud.verifyIntendedAudience(includes: ServerOptions.current.audience)
        guard iss.value == ServerOptions.current.issuer else {
            throw JWTError.claimVerificationFailure(failedClaim: iss, reason: "wrong issuer")
        }
    }
}
