/// The issuers a ``KeySourceVerifier`` accepts: named ones, or — said out loud —
/// ``anyIssuer``.
///
/// A service verifying tokens from a key source must decide whose tokens it takes, so the
/// verifier has no default: `.exactly("https://id.example.com")`, `.oneOf([...])`, or the
/// searchable opt-out `.anyIssuer`.
///
/// Guarantees: with named issuers, a token's `iss` must be present, a string, and
/// byte-for-byte equal to one of them (no Unicode normalisation). Does not guarantee that the
/// named issuer is the one whose keys the source holds; pair it with the source you trust.
public struct ExpectedIssuer: Sendable {
    /// The accepted issuers; `nil` accepts any (``anyIssuer``).
    public let accepted: [String]?

    private init(accepted: [String]?) { self.accepted = accepted }

    /// Tokens must carry exactly this `iss`.
    public static func exactly(_ issuer: String) -> ExpectedIssuer { ExpectedIssuer(accepted: [issuer]) }

    /// Tokens must carry one of these `iss` values (an empty set accepts no token).
    public static func oneOf(_ issuers: [String]) -> ExpectedIssuer { ExpectedIssuer(accepted: issuers) }

    /// The explicit opt-out: `iss` is not checked (a present `iss` need not be a string).
    /// Use it only when the key source already binds keys to one issuer.
    public static let anyIssuer = ExpectedIssuer(accepted: nil)
}
