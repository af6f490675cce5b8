internal import TokenKitPrimitives

/// One key source per issuer: a token's keys come from the source registered for its
/// `iss`, then are chosen by `kid` as that source decides.
///
/// Guarantees: a token whose `iss` is missing or not registered gets no keys (error
/// ``JWTError/Code/noMatchingKey``), so one issuer's keys never verify another issuer's
/// tokens. Issuers are matched byte for byte, never by Unicode canonical equivalence: a
/// token claiming `https://\u{212A}.example` (KELVIN SIGN) does not get the keys of
/// `https://K.example`. The `iss` is read before the signature is checked, only to pick
/// the source; the signature is then checked with that issuer's keys, so a token claiming
/// another issuer fails. Combine with ``ValidationOptions/issuers`` to limit accepted
/// issuers too.
///
/// Build it with ``init(exactly:)``: a dictionary literal (`[String: …]`) is itself keyed by
/// canonical equivalence, so two issuers that differ only by Unicode normalisation would
/// collide in it before this type could see them.
public struct IssuerKeySources: JWTKeySource {
    /// The sources by the exact bytes of their issuer.
    private let byIssuer: [ExactKey: any JWTKeySource]
    /// The issuers in the order given.
    public let issuers: [String]

    /// Sources keyed by issuer, each matched byte for byte with the token's `iss`.
    ///
    /// Issuers that differ only by Unicode normalisation are distinct entries here. Two
    /// entries with exactly the same issuer are a configuration error: throws
    /// ``JWTError/Code/invalidKey`` naming it.
    public init(exactly sources: KeyValuePairs<String, any JWTKeySource>) throws(JWTError) {
        try self.init(exactly: sources.map { (issuer: $0.key, source: $0.value) })
    }

    /// Sources from (issuer, source) pairs built at run time; the rules of
    /// ``init(exactly:)-(KeyValuePairs<String,any JWTKeySource>)``.
    public init(exactly sources: [(issuer: String, source: any JWTKeySource)]) throws(JWTError) {
        var byIssuer: [ExactKey: any JWTKeySource] = [:]
        var issuers: [String] = []
        for (issuer, source) in sources {
            guard byIssuer.updateValue(source, forKey: ExactKey(issuer)) == nil else {
                throw .invalidKey("issuer \"\(JSONNameShortener.shorten(issuer))\" has two key sources")
            }
            issuers.append(issuer)
        }
        self.byIssuer = byIssuer
        self.issuers = issuers
    }

    /// Sources keyed by issuer (matched byte for byte with the token's `iss`).
    ///
    /// - Warning: a `[String: …]` dictionary has already merged issuers that are Unicode
    ///   canonically equivalent (a literal with two such keys traps at run time; a built
    ///   dictionary keeps one of them), which this initialiser cannot detect. Use
    ///   ``init(exactly:)``.
    @available(*, deprecated, message: "a [String: …] dictionary merges canonically equivalent issuers; use init(exactly:)")
    public init(_ sources: [String: any JWTKeySource]) {
        var byIssuer: [ExactKey: any JWTKeySource] = [:]
        for (issuer, source) in sources { byIssuer[ExactKey(issuer)] = source }
        self.byIssuer = byIssuer
        self.issuers = sources.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// The sources keyed by issuer. Issuers that differ only by Unicode normalisation
    /// collide in a `[String: …]` dictionary: only the first of them (in ``issuers`` order)
    /// is in it. Use ``source(forIssuer:)``.
    @available(*, deprecated, message: "a [String: …] dictionary merges canonically equivalent issuers; use issuers and source(forIssuer:)")
    public var sources: [String: any JWTKeySource] {
        var all: [String: any JWTKeySource] = [:]
        for issuer in issuers where all[issuer] == nil { all[issuer] = byIssuer[ExactKey(issuer)] }
        return all
    }

    /// The source registered for exactly `issuer` (byte for byte), if any.
    public func source(forIssuer issuer: String) -> (any JWTKeySource)? { byIssuer[ExactKey(issuer)] }

    /// The current keys of the token's issuer's source.
    public func currentKeys(for request: JWTKeyRequest) -> JWKSet? {
        guard let issuer = request.unverifiedIssuer(), let source = source(forIssuer: issuer) else { return nil }
        return source.currentKeys(for: request)
    }

    /// Loads keys from the token's issuer's source.
    public func loadKeys(for request: JWTKeyRequest) async throws(JWTError) -> JWKSet {
        guard let issuer = request.unverifiedIssuer() else {
            throw JWTError(code: .noMatchingKey, reason: "the token has no string \"iss\" claim to choose a key source by")
        }
        guard let source = source(forIssuer: issuer) else {
            throw JWTError(code: .noMatchingKey, reason: "no key source for issuer \"\(JSONNameShortener.shorten(issuer))\"")
        }
        return try await source.loadKeys(for: request)
    }
}
