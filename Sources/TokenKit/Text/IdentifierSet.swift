internal import TokenKitPrimitives

/// A set of identifiers — issuers, audiences, claim names, scopes, roles — whose members are
/// compared by their UTF-8 bytes (RFC 7519 §7.3: no Unicode normalisation, no case folding).
///
/// `Set<String>` uses Swift's `String ==`, which is canonical equivalence: `"\u{212A}"`
/// (KELVIN SIGN) equals `"K"`, and a decomposed `"e\u{301}"` equals `"\u{E9}"`. So a
/// `Set<String>` of accepted values answers `contains` for a different string than the one
/// configured, and silently keeps one of two configured values that differ only by
/// normalisation. Here the two are distinct members and `contains` is true only for the
/// exact bytes of a member.
///
/// Guarantees: membership, insertion, removal, equality and hashing go by bytes only.
/// Iteration order is unspecified (as for `Set`). Written like a `Set<String>`: an array
/// literal (`["https://issuer.example"]`), or ``init(_:)`` from any sequence of strings.
public struct IdentifierSet: SetAlgebra, Sequence, Hashable, Sendable, CustomStringConvertible {
    /// A member: one identifier.
    public typealias Element = String

    /// The members, keyed by their bytes.
    private(set) var members: Set<ExactKey>

    /// An empty set.
    public init() { members = [] }

    /// The distinct identifiers of `identifiers` (by bytes).
    public init(_ identifiers: some Sequence<String>) {
        members = Set(identifiers.lazy.map { ExactKey($0) })
    }

    /// A set from a literal.
    public init(arrayLiteral elements: String...) { self.init(elements) }

    private init(members: Set<ExactKey>) { self.members = members }

    /// Number of members.
    public var count: Int { members.count }
    /// Whether the set has no member.
    public var isEmpty: Bool { members.isEmpty }

    /// Whether a member has exactly the UTF-8 bytes of `identifier`.
    public func contains(_ identifier: String) -> Bool { members.contains(ExactKey(identifier)) }

    /// The members in no particular order.
    public func makeIterator() -> Iterator { Iterator(base: members.makeIterator()) }

    /// Iterates the members' strings.
    public struct Iterator: IteratorProtocol {
        var base: Set<ExactKey>.Iterator
        /// The next member, or `nil` at the end.
        public mutating func next() -> String? { base.next()?.text }
    }

    /// The members of both sets.
    public func union(_ other: Self) -> Self { Self(members: members.union(other.members)) }
    /// The members common to both sets.
    public func intersection(_ other: Self) -> Self { Self(members: members.intersection(other.members)) }
    /// The members of exactly one of the sets.
    public func symmetricDifference(_ other: Self) -> Self { Self(members: members.symmetricDifference(other.members)) }

    /// Inserts `identifier` unless a member has its bytes; returns that member otherwise.
    @discardableResult
    public mutating func insert(_ identifier: String) -> (inserted: Bool, memberAfterInsert: String) {
        let (inserted, member) = members.insert(ExactKey(identifier))
        return (inserted, member.text)
    }

    /// Removes the member with the bytes of `identifier`, returning it.
    @discardableResult
    public mutating func remove(_ identifier: String) -> String? { members.remove(ExactKey(identifier))?.text }

    /// Inserts `identifier`, replacing a member with its bytes; returns the replaced one.
    @discardableResult
    public mutating func update(with identifier: String) -> String? { members.update(with: ExactKey(identifier))?.text }

    /// Adds the members of `other`.
    public mutating func formUnion(_ other: Self) { members.formUnion(other.members) }
    /// Keeps the members also in `other`.
    public mutating func formIntersection(_ other: Self) { members.formIntersection(other.members) }
    /// Keeps the members in exactly one of the sets.
    public mutating func formSymmetricDifference(_ other: Self) { members.formSymmetricDifference(other.members) }

    /// The members, sorted by their bytes, in set notation.
    public var description: String {
        "[" + members.map(\.text).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
    }
}
