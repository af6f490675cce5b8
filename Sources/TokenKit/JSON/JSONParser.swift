/// Limits that keep parsing of hostile input fast and bounded.
public struct ParsingLimits: Sendable, Hashable {
    /// Largest accepted compact token, in bytes (default 32 KiB).
    public var maxTokenBytes: Int
    /// Deepest accepted nesting of arrays and objects in header and payload (default 16).
    public var maxDepth: Int

    /// Creates limits; values below 1 are raised to 1.
    public init(maxTokenBytes: Int = 32 * 1024, maxDepth: Int = 16) {
        self.maxTokenBytes = max(1, maxTokenBytes)
        self.maxDepth = max(1, maxDepth)
    }

    /// 32 KiB tokens, nesting depth 16.
    public static let `default` = ParsingLimits()
}

/// Builds `JSONValue`s from ``JSONLexer``'s events: the lexer enforces the grammar and every
/// limit (see its rules), this only assembles what it reads. Every failure carries a reason
/// with a byte offset; none echoes the input.
struct StrictJSONParser: JSONEvents {
    typealias Failure = JSONSyntaxError

    /// Containers being filled, innermost last.
    private var objects: [JSONObject] = []
    private var arrays: [[JSONValue]] = []
    /// For each open container, innermost last: `true` for an object.
    private var openIsObject: [Bool] = []
    /// The name of the member whose value comes next, per open object.
    private var pendingNames: [String] = []
    private var result: JSONValue = .null

    /// Parses one JSON text that must be an object.
    static func parseObject(_ input: [UInt8], maxDepth: Int) throws(Failure) -> JSONObject {
        guard case .object(let object) = try build(input, maxDepth: maxDepth, requireObject: true) else { return JSONObject() }
        return object
    }

    /// Parses one JSON text of any type.
    static func parse(_ input: [UInt8], maxDepth: Int) throws(Failure) -> JSONValue {
        try build(input, maxDepth: maxDepth, requireObject: false)
    }

    private static func build(_ input: [UInt8], maxDepth: Int, requireObject: Bool) throws(Failure) -> JSONValue {
        try input.withUnsafeBufferPointer { buffer throws(Failure) in
            var builder = StrictJSONParser()
            try JSONLexer.read(buffer, maxDepth: maxDepth, requireObject: requireObject, into: &builder)
            return builder.result
        }
    }

    /// A member name fit for an error reason: control characters replaced (reasons are one
    /// line and names come from untrusted input), at most 40 characters.
    static func shortened(_ s: String) -> String { JSONNameShortener.shorten(s) }

    // MARK: JSONEvents

    mutating func objectStart() {
        objects.append(JSONObject())
        openIsObject.append(true)
    }

    mutating func memberName(_ name: JSONStringSpan) { pendingNames.append(name.decoded) }

    mutating func objectEnd() {
        openIsObject.removeLast()
        add(.object(objects.removeLast()))
    }

    mutating func arrayStart(at offset: Int) {
        arrays.append([])
        openIsObject.append(false)
    }

    mutating func arrayEnd(endingAt offset: Int) {
        openIsObject.removeLast()
        add(.array(arrays.removeLast()))
    }

    mutating func string(_ value: JSONStringSpan) { add(.string(value.decoded)) }

    mutating func number(_ input: UnsafeBufferPointer<UInt8>, start: Int, end: Int) {
        add(.number(JSONNumber(checkedLiteral: String(decoding: UnsafeBufferPointer(rebasing: input[start..<end]), as: UTF8.self))))
    }

    mutating func literal(_ value: JSONLiteral) {
        switch value {
        case .true: add(.bool(true))
        case .false: add(.bool(false))
        case .null: add(.null)
        }
    }

    /// Puts a finished value into the innermost open container, or makes it the result.
    private mutating func add(_ value: JSONValue) {
        guard let isObject = openIsObject.last else {
            result = value
            return
        }
        if isObject {
            // Appended without a search: a duplicate name makes the lexer refuse the text right
            // after this value, so an object holding one is never returned.
            objects[objects.count - 1].appendNewMember(pendingNames.removeLast(), value)
        } else {
            arrays[arrays.count - 1].append(value)
        }
    }
}
