import TokenKit

/// Checks token signatures during an audit, reporting failures as data instead of errors.
///
/// Guarantees: uses only the keys it was given (never a key from the token's header); a
/// token whose `alg` is `none`, unsupported, or not usable with any key fails. It checks
/// the header and signature only; claims are judged by ``TokenAuditor``.
public struct AuditSignatureChecker: Sendable {
    private let verifier: JWTVerifier

    /// A checker trying `keys` (chosen per token by `kid`, see ``JWKSet``).
    public init(keys: JWKSet, limits: ParsingLimits = .default) {
        var options = ValidationOptions()
        options.limits = limits
        verifier = JWTVerifier(keys: keys, options: options)
    }

    /// `nil` when the signature verifies, else the reason (without the token or key).
    public func failure(for token: String) -> String? {
        do {
            _ = try verifier.verifyJWS(token)
            return nil
        } catch {
            return error.reason
        }
    }
}
