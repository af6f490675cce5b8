import Foundation
internal import TokenKitCrypto

/// Verifies JWS/JWTs signed with the key of an `x5c` certificate chain (RFC 7515 §4.1.6), such
/// as Apple's App Store Server Notifications v2: the chain must lead to a root you trust.
///
/// For each token: the header is parsed and its `alg` checked as ``JWTVerifier`` does (`none`,
/// unknown, disallowed and any `crit` refused) → `x5c` read (``X5CPolicy/maximumChainLength``
/// entries at most, strict standard base64, DER) → entries equal to a trusted root are dropped
/// (a copy of the root may travel along) → OpenSSL builds and checks the path leaf →
/// intermediates → a trusted root at the verification time (``ValidationOptions/clock``):
/// validity periods, signatures, basicConstraints and pathLen, keyCertSign on issuers,
/// unknown critical extensions, RFC 5280 strictness, and no SHA-1/MD5 signatures or RSA keys
/// under 2048 bits anywhere (``X509TrustStore`` in the OpenSSL wrapper) → the leaf's key usage,
/// when present, must include digitalSignature → the policy's pins → the leaf key passes key
/// admission and `alg` must fit its type → the JWS signature and the claims are checked
/// exactly as ``JWTVerifier`` does with that one key.
///
/// Every chain failure is a ``JWTError/Code/certificateChain`` error whose reason starts with
/// `certificate chain:`. `jku`, `x5u` and `x5t` are never followed or used; revocation (CRL,
/// OCSP) is not checked. Verified chains are cached (``X5CChainCache``) without ever skipping
/// the time check. Immutable and `Sendable`: build one and share it.
public struct X5CVerifier: Sendable {
    /// The trust anchors.
    public let trustedRoots: [X509Certificate]
    /// The chain rules beyond path validation.
    public let policy: X5CPolicy
    /// The checks applied to the JWT (its signature and claims).
    public let options: ValidationOptions
    let trustStore: X509TrustStore
    let cache = X5CChainCache()
    let headerCache = HeaderCache()
    let optionsReplicas = OptionsReplicas()

    /// A verifier trusting `trustedRoots` (at least one).
    ///
    /// - Throws: ``JWTError/Code/invalidKey`` for an empty root list or an unusable policy.
    public init(trustedRoots: [X509Certificate], policy: X5CPolicy = X5CPolicy(), options: ValidationOptions = ValidationOptions()) throws(JWTError) {
        try policy.validate()
        do { trustStore = try X509TrustStore(roots: trustedRoots.map(\.certificate)) } catch {
            throw .invalidKey("cannot set up the trusted roots", cause: error)
        }
        self.trustedRoots = trustedRoots
        self.policy = policy
        self.options = options
    }

    /// Verifies the chain, the signature and the claims of a JWT.
    public func verify(_ token: String) throws(JWTError) -> VerifiedJWT {
        try verifier(for: token).verify(token)
    }

    /// Verifies a JWT and decodes its payload as `Payload` (after every check passed).
    public func verify<Payload: Decodable>(_ token: String, as type: Payload.Type) throws(JWTError) -> Payload {
        try verifier(for: token).verify(token).decode(as: type)
    }

    /// Verifies the chain and the signature of a plain JWS (no claim is checked).
    public func verifyJWS(_ token: String) throws(JWTError) -> (header: JWTHeader, payload: [UInt8]) {
        try verifier(for: token).verifyJWS(token)
    }

    /// A ``JWTVerifier`` over the verified leaf key of `token`'s chain.
    private func verifier(for token: String) throws(JWTError) -> JWTVerifier {
        let header = try headerCache.header(ofToken: token, limits: options.limits)
        let algorithm = try JWTVerifier.admittedAlgorithm(header, options: options)
        let chain = try X5CHeaderChain(header, maximumLength: policy.maximumChainLength)
        let now = Int64(floor(options.clock.now.timeIntervalSince1970))
        let entry: X5CChainCache.Entry
        if let cached = cache.entry(for: chain, at: now) {
            entry = cached
        } else {
            entry = try verifyChain(chain, at: now)
            cache.insert(entry, for: chain)
        }
        guard entry.leafAlgorithms.contains(algorithm) else {
            throw JWTError(code: .algorithmNotAllowed, reason: "the x5c leaf's key cannot verify \(algorithm) (it fits \(entry.leafAlgorithms.sorted().map(\.name).joined(separator: ", ")))")
        }
        return entry.verifier
    }

    /// Verifies `chain` at `time` and makes the cache entry for it.
    private func verifyChain(_ chain: X5CHeaderChain, at time: Int64) throws(JWTError) -> X5CChainCache.Entry {
        var certificates: [X509Cert] = []
        for (index, der) in try chain.derCertificates().enumerated() {
            do { certificates.append(try X509Cert(der: der)) } catch {
                throw Self.failure("\"x5c\" entry \(index + 1) is not a DER certificate: \(error.message)")
            }
        }
        let leaf = certificates[0]
        let roots = Set(trustStore.roots.map(\.der))
        let intermediates = certificates.dropFirst().filter { !roots.contains($0.der) }
        let path: [X509Cert]
        do {
            path = try trustStore.verify(leaf: leaf, intermediates: Array(intermediates), at: time, maximumIntermediates: policy.maximumChainLength)
        } catch {
            throw Self.failure(error.message)
        }
        let usage = leaf.keyUsage
        if usage.present, !usage.digitalSignature {
            throw Self.failure("the leaf certificate's key usage does not include digitalSignature")
        }
        if let subject = policy.leafSubject, !leaf.subject.isByteIdentical(to: subject) {
            throw Self.failure("the leaf certificate's subject \"\(JSONNameShortener.shorten(leaf.subject))\" is not the pinned subject")
        }
        for oid in policy.leafExtensionOIDs.sorted() where !leaf.hasExtension(oid: oid) {
            throw Self.failure("the leaf certificate lacks the required extension \(oid)")
        }
        if !policy.issuerExtensionOIDs.isEmpty {
            guard path.count >= 3 else { throw Self.failure("the path has no intermediate certificate to carry the required extensions") }
            for oid in policy.issuerExtensionOIDs.sorted() where !path[1].hasExtension(oid: oid) {
                throw Self.failure("the leaf's issuer lacks the required extension \(oid)")
            }
        }
        let key: PKey
        do { key = try leaf.publicKey() } catch { throw Self.failure("the leaf certificate's key is refused: \(error.message)") }
        let algorithms = JWTAlgorithm.algorithms(for: key.type)
        guard !algorithms.isEmpty else { throw Self.failure("the leaf certificate's \(key.type) key cannot sign") }
        var validFrom = Int64.min, validUntil = Int64.max
        for certificate in path {
            guard let validity = certificate.validity else { throw Self.failure("a certificate's validity period is unreadable") }
            validFrom = max(validFrom, validity.notBefore)
            validUntil = min(validUntil, validity.notAfter)
        }
        let jwtKey = JWTKey(material: .asymmetric(key), keyID: nil, algorithms: algorithms)
        let verifier = JWTVerifier(keys: JWKSet(keys: [jwtKey]), options: options, headerCache: headerCache, optionsReplicas: optionsReplicas)
        return X5CChainCache.Entry(verifier: verifier, leafAlgorithms: algorithms, validFrom: validFrom, validUntil: validUntil)
    }

    /// A chain failure: code ``JWTError/Code/certificateChain``, reason "certificate chain: `why`".
    static func failure(_ why: String) -> JWTError {
        JWTError(code: .certificateChain, reason: "certificate chain: \(why)")
    }
}
