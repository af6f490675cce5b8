/// A string hashed and compared by its UTF-8 bytes, for sets and dictionaries of identifiers
/// (JSON member names, key IDs, issuers, scopes, roles, origins) and for `switch` over
/// identifiers: `switch ExactKey(kty) { case "OKP": … }` matches only those exact bytes,
/// where `switch kty` would also match `"O\u{212A}P"` (KELVIN SIGN).
///
/// Guarantees: two keys are equal exactly when their texts are byte-identical
/// (``Swift/String/isByteIdentical(to:)``), and equal keys hash equally. Does not: fold
/// case or normalise Unicode.
public struct ExactKey: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The text, exactly as given.
    public let text: String

    /// The key for `text`.
    @inlinable
    public init(_ text: String) { self.text = text }

    /// The key for a literal.
    @inlinable
    public init(stringLiteral value: String) { self.text = value }

    /// Equal when the texts have the same UTF-8 bytes.
    @inlinable
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.text.isByteIdentical(to: rhs.text) }

    /// Hashes the UTF-8 bytes (consistent with ``==(_:_:)``).
    @inlinable
    public func hash(into hasher: inout Hasher) {
        let hashed: Void? = text.utf8.withContiguousStorageIfAvailable { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        if hashed == nil {
            for byte in text.utf8 { hasher.combine(byte) }
        }
        hasher.combine(text.utf8.count)
    }

    /// The text.
    public var description: String { text }
}
