/// The audiences a ``KeySourceVerifier`` accepts: named ones, or — said out loud —
/// ``anyAudience``.
///
/// A token minted for another service of the same issuer verifies with the same keys; only
/// the audience check tells them apart, so the verifier has no default:
/// `.exactly("api")`, `.oneOf([...])`, or the searchable opt-out `.anyAudience`.
///
/// Guarantees: with named audiences, a token's `aud` (a string or an array of strings) must
/// be present and contain a value byte-for-byte equal to one of them. With ``anyAudience``,
/// `aud` is still refused when it is present but not a string or an array of strings.
public struct ExpectedAudience: Sendable {
    /// The accepted audiences; `nil` accepts any (``anyAudience``).
    public let accepted: [String]?

    private init(accepted: [String]?) { self.accepted = accepted }

    /// Tokens must name exactly this audience in `aud`.
    public static func exactly(_ audience: String) -> ExpectedAudience { ExpectedAudience(accepted: [audience]) }

    /// Tokens must name one of these audiences in `aud` (an empty set accepts no token).
    public static func oneOf(_ audiences: [String]) -> ExpectedAudience { ExpectedAudience(accepted: audiences) }

    /// The explicit opt-out: the token's audience is not compared with anything.
    public static let anyAudience = ExpectedAudience(accepted: nil)
}
