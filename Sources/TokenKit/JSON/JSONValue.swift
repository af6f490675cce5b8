internal import TokenKitPrimitives

/// A JSON value as TokenKit parsed it (RFC 8259), for raw access to headers and claims.
///
/// The six cases are fixed by the JSON grammar, so this enum will never gain cases.
/// Numbers keep their literal text (see ``JSONNumber``), so a claim such as `exp` can be
/// shown exactly as the token wrote it.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// The string, when this is a string.
    public var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    /// The number, when this is a number.
    public var numberValue: JSONNumber? { if case .number(let n) = self { n } else { nil } }
    /// The object, when this is an object.
    public var objectValue: JSONObject? { if case .object(let o) = self { o } else { nil } }
    /// The elements, when this is an array.
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { a } else { nil } }
    /// The Boolean, when this is `true` or `false`.
    public var boolValue: Bool? { if case .bool(let b) = self { b } else { nil } }

    /// How deeply arrays and objects nest (a scalar is 0, `{}` is 1), counting no further
    /// than `limit`, so a hostile value costs at most `limit` levels of recursion.
    func nestingDepth(upTo limit: Int) -> Int {
        guard limit > 0 else { return 0 }
        switch self {
        case .array(let elements):
            return 1 + (elements.lazy.map { $0.nestingDepth(upTo: limit - 1) }.max() ?? 0)
        case .object(let object):
            return 1 + (object.lazy.map { $0.value.nestingDepth(upTo: limit - 1) }.max() ?? 0)
        default:
            return 0
        }
    }

    /// Equal when of the same JSON type with equal contents; strings (and member names)
    /// compare by their UTF-8 bytes, never by Unicode canonical equivalence, so
    /// `.string("\u{212A}")` (KELVIN SIGN) is not `.string("K")`.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.string(let a), .string(let b)): a.isByteIdentical(to: b)
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a == b
        default: false
        }
    }

    /// Hashes what ``==(_:_:)`` compares (strings by their bytes).
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let b): hasher.combine(1); hasher.combine(b)
        case .number(let n): hasher.combine(2); hasher.combine(n)
        case .string(let s): hasher.combine(3); hasher.combine(ExactKey(s))
        case .array(let a): hasher.combine(4); hasher.combine(a)
        case .object(let o): hasher.combine(5); hasher.combine(o)
        }
    }

    /// A short name of the value's JSON type, for error messages.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

/// A JSON number: its literal text (as it appeared, or as TokenKit wrote it) and its value.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    /// The number exactly as written in the JSON text.
    public let literal: String
    /// The value as a `Double` (may be rounded for very long literals; infinite when the
    /// literal overflows, e.g. `1e400`).
    public let doubleValue: Double

    /// A number from a literal already checked against the JSON grammar.
    init(checkedLiteral: String) {
        literal = checkedLiteral
        doubleValue = Double(checkedLiteral) ?? .nan
    }

    /// A number from a checked literal whose value the caller already computed as
    /// `Double(literal)` does.
    init(checkedLiteral: String, value: Double) {
        literal = checkedLiteral
        doubleValue = value
    }

    /// An integer number.
    public init(_ value: Int64) {
        literal = String(value)
        doubleValue = Double(value)
    }

    /// A finite floating-point number (integral values are written without a fraction).
    public init?(_ value: Double) {
        guard value.isFinite else { return nil }
        if value == value.rounded(), abs(value) < 9.007_199_254_740_992e15 {
            literal = String(Int64(value))
        } else {
            literal = "\(value)"
        }
        doubleValue = value
    }

    /// The value as an `Int64` when it is integral and in range.
    public var int64Value: Int64? {
        guard doubleValue.isFinite, doubleValue == doubleValue.rounded(),
              abs(doubleValue) < 9.22e18 else { return nil }
        return Int64(doubleValue)
    }

    public var description: String { literal }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.doubleValue == rhs.doubleValue }
    public func hash(into hasher: inout Hasher) { hasher.combine(doubleValue) }
}

/// A JSON object with unique member names, remembering the order they were written in.
///
/// Member names are compared by their UTF-8 bytes, never by Unicode canonical equivalence:
/// `"\u{212A}id"` (KELVIN SIGN) and `"Kid"` are two different members, and looking up one
/// never finds the other.
public struct JSONObject: Sendable, Hashable, Sequence {
    /// One member: its name and value.
    struct Member: Sendable {
        let key: String
        var value: JSONValue
    }

    /// Members in document order; names are unique by their bytes.
    private var members: [Member]
    /// Position of each member by name, kept only for large objects: below
    /// ``indexThreshold`` members a scan of short names is cheaper than hashing one.
    private var index: [ExactKey: Int]?
    private static let indexThreshold = 16

    /// Member names in document order.
    public var keys: [String] { members.map(\.key) }

    /// An empty object.
    public init() {
        members = []
        index = nil
    }

    /// An object from name/value pairs; a later duplicate name replaces the earlier value.
    public init(_ members: [(String, JSONValue)]) {
        self.init()
        self.members.reserveCapacity(members.count)
        for (key, value) in members { self[key] = value }
    }

    /// Where the member named `key` is, if present.
    private func position(of key: String) -> Int? {
        if let index { return index[ExactKey(key)] }
        return members.firstIndex { $0.key.isByteIdentical(to: key) }
    }

    /// The member's value, or `nil` when absent. Setting `nil` removes the member.
    public subscript(key: String) -> JSONValue? {
        get { position(of: key).map { members[$0].value } }
        set {
            let found = position(of: key)
            switch (found, newValue) {
            case (let found?, let newValue?):
                members[found].value = newValue
            case (nil, let newValue?):
                appendNewMember(key, newValue)
            case (let found?, nil):
                members.remove(at: found)
                if index != nil { rebuildIndex() }
            case (nil, nil):
                break
            }
        }
    }

    /// Appends a member without looking for its name first. Only for a caller that never
    /// hands out an object with a duplicate name: the parser, whose lexer refuses the whole
    /// text (after reading the duplicate's value) before any object built from it is returned.
    /// Lookups in an object with a duplicate would find the first one.
    mutating func appendNewMember(_ key: String, _ value: JSONValue) {
        members.append(Member(key: key, value: value))
        if index != nil {
            index?[ExactKey(key)] = members.count - 1
        } else if members.count > Self.indexThreshold {
            rebuildIndex()
        }
    }

    private mutating func rebuildIndex() {
        var built: [ExactKey: Int] = [:]
        built.reserveCapacity(members.count)
        for (position, member) in members.enumerated() { built[ExactKey(member.key)] = position }
        index = built
    }

    /// Number of members.
    public var count: Int { members.count }

    /// Calls `body` with each member in document order (no iterator, no copy of the members).
    func forEachMember(_ body: (String, JSONValue) throws -> Void) rethrows {
        for member in members { try body(member.key, member.value) }
    }

    /// Members in document order.
    public func makeIterator() -> some IteratorProtocol<(key: String, value: JSONValue)> {
        MemberIterator(base: members.makeIterator())
    }

    /// The iterator ``makeIterator()`` returns.
    struct MemberIterator: IteratorProtocol {
        var base: IndexingIterator<[Member]>
        mutating func next() -> (key: String, value: JSONValue)? {
            base.next().map { ($0.key, $0.value) }
        }
    }

    /// Equal when both have the same names (by their bytes) with equal values, in any order.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        guard lhs.members.count == rhs.members.count else { return false }
        for member in lhs.members {
            guard let other = rhs[member.key], other == member.value else { return false }
        }
        return true
    }

    /// Hashes the members independently of their order (consistent with ``==(_:_:)``).
    public func hash(into hasher: inout Hasher) {
        var combined = 0
        for member in members {
            var memberHasher = Hasher()
            memberHasher.combine(ExactKey(member.key))
            memberHasher.combine(member.value)
            combined ^= memberHasher.finalize()
        }
        hasher.combine(members.count)
        hasher.combine(combined)
    }
}
