/// What an `x5c` chain must satisfy beyond OpenSSL's path validation (see ``X5CVerifier``).
///
/// Defaults: at most 5 certificates in `x5c`, no pinned subject or extension. Pins are
/// compared exactly: a subject byte for byte in its RFC 2253 form, an extension by its
/// dotted object identifier.
public struct X5CPolicy: Sendable, Hashable {
    /// The largest `x5c` array accepted (leaf included); also bounds the path's length.
    public var maximumChainLength: Int
    /// The leaf's subject, RFC 2253 form (``X509Certificate/subject``); `nil` to skip.
    public var leafSubject: String?
    /// Extensions (dotted OIDs) the leaf certificate must carry.
    public var leafExtensionOIDs: Set<String>
    /// Extensions (dotted OIDs) the leaf's issuer (the first intermediate) must carry.
    public var issuerExtensionOIDs: Set<String>

    /// A policy with the given pins (each defaults to none).
    public init(maximumChainLength: Int = 5, leafSubject: String? = nil, leafExtensionOIDs: Set<String> = [], issuerExtensionOIDs: Set<String> = []) {
        self.maximumChainLength = maximumChainLength
        self.leafSubject = leafSubject
        self.leafExtensionOIDs = leafExtensionOIDs
        self.issuerExtensionOIDs = issuerExtensionOIDs
    }

    /// Apple's App Store Server (notifications v2, StoreKit 2 transactions): a chain of
    /// exactly leaf, intermediate and root, the leaf marked `1.2.840.113635.100.6.11.1` and its
    /// issuer `1.2.840.113635.100.6.2.1`, as Apple's App Store Server Library checks. Pair it
    /// with Apple Root CA - G3 as the trusted root.
    public static let appStore = X5CPolicy(
        maximumChainLength: 3, leafExtensionOIDs: ["1.2.840.113635.100.6.11.1"], issuerExtensionOIDs: ["1.2.840.113635.100.6.2.1"])

    /// Refuses a policy that cannot work: a length under 1, an OID that is not dotted digits.
    func validate() throws(JWTError) {
        guard maximumChainLength >= 1 else { throw .invalidKey("x5c policy: maximumChainLength must be at least 1") }
        for oid in leafExtensionOIDs.union(issuerExtensionOIDs) {
            let arcs = oid.split(separator: ".", omittingEmptySubsequences: false)
            guard arcs.count >= 2, arcs.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }) else {
                throw .invalidKey("x5c policy: \"\(JSONNameShortener.shorten(oid))\" is not a dotted object identifier")
            }
        }
    }
}
