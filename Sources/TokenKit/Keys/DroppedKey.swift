internal import TokenKitPrimitives

/// An entry of a JWKS document that was not loaded, and why (``JWKSet/droppedKeys``).
///
/// Made to be shown (a health endpoint, a log line): the reason is one line naming the
/// problem (an unsupported key type, a key for encryption, a key refused by key admission,
/// e.g. an Ed25519 key of small order), never key material. Guarantees nothing about the
/// `kid`: it is the document's text, unverified and possibly hostile — clean it before
/// showing it on a terminal.
public struct DroppedKey: Sendable, Hashable, CustomStringConvertible {
    /// The entry's position in the document's `keys` array.
    public let index: Int
    /// The entry's `kid` when it has a string one; `nil` otherwise.
    public let keyID: String?
    /// Why the entry was dropped (one line, no key material).
    public let reason: String

    /// A dropped entry.
    public init(index: Int, keyID: String?, reason: String) {
        self.index = index
        self.keyID = keyID
        self.reason = reason
    }

    /// `key 2 (kid "a"): reason`, the `kid` shortened and cleaned.
    public var description: String {
        let kid = keyID.map { " (kid \"\(JSONNameShortener.shorten($0))\")" } ?? ""
        return "key \(index)\(kid): \(reason)"
    }

    /// Equal when index, `kid` (by its bytes) and reason are.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.index == rhs.index && lhs.reason == rhs.reason
            && (lhs.keyID.map { ExactKey($0) } == rhs.keyID.map { ExactKey($0) })
    }

    /// Hashes what ``==(_:_:)`` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(index)
        hasher.combine(reason)
        hasher.combine(keyID.map { ExactKey($0) })
    }
}
