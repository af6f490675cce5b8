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
    /// Member names in document order.
    public private(set) var keys: [String]
    private var values: [ExactKey: JSONValue]

    /// An empty object.
    public init() {
        keys = []
        values = [:]
    }

    /// An object from name/value pairs; a later duplicate name replaces the earlier value.
    public init(_ members: [(String, JSONValue)]) {
        self.init()
        for (key, value) in members { self[key] = value }
    }

    /// The member's value, or `nil` when absent. Setting `nil` removes the member.
    public subscript(key: String) -> JSONValue? {
        get { values[ExactKey(key)] }
        set {
            if let newValue {
                if values.updateValue(newValue, forKey: ExactKey(key)) == nil { keys.append(key) }
            } else if values.removeValue(forKey: ExactKey(key)) != nil {
                keys.removeAll { $0.isByteIdentical(to: key) }
            }
        }
    }

    /// Number of members.
    public var count: Int { keys.count }

    /// Members in document order.
    public func makeIterator() -> some IteratorProtocol<(key: String, value: JSONValue)> {
        var index = 0
        let keys = keys, values = values
        return AnyIterator {
            guard index < keys.count else { return nil }
            defer { index += 1 }
            return (keys[index], values[ExactKey(keys[index])] ?? .null)
        }
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.values == rhs.values }
    public func hash(into hasher: inout Hasher) { hasher.combine(values) }
}
