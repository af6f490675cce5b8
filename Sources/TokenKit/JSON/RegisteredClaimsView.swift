internal import TokenKitPrimitives

/// The JSON type of a value, or its absence.
enum JSONKind: UInt8 {
    case absent, string, number, object, array, boolean, null

    /// The name `JSONValue.typeName` gives the same type.
    var typeName: String {
        switch self {
        case .absent: "absent"
        case .string: "string"
        case .number: "number"
        case .object: "object"
        case .array: "array"
        case .boolean: "boolean"
        case .null: "null"
        }
    }
}

/// The registered claims of a JWT payload, read by ``JSONLexer`` without building a JSON
/// tree and without allocating: where each of `iss`, `sub`, `aud`, `exp`, `nbf`, `iat` and
/// `jti` is, its type, and which of the caller's required claim names are present.
///
/// It is a consumer of the package's one JSON grammar, so it accepts exactly the payloads
/// ``StrictJSONParser`` accepts (the fuzz target `fuzz-json-reader` checks that, and that
/// every value read here equals the builder's). A view points into the payload it was
/// read from: use it only while that buffer is alive.
struct RegisteredClaimsView: JSONEvents {
    /// A registered claim the core reads.
    enum Claim: Int, CaseIterable {
        case iss, sub, aud, exp, nbf, iat, jti

        /// The claim's member name.
        var name: String {
            switch self {
            case .iss: "iss"
            case .sub: "sub"
            case .aud: "aud"
            case .exp: "exp"
            case .nbf: "nbf"
            case .iat: "iat"
            case .jti: "jti"
            }
        }

        /// The claim whose name has exactly `name`'s bytes.
        init?(exactName name: String) {
            guard name.utf8.count == 3 else { return nil }
            let claim: Claim?? = name.utf8.withContiguousStorageIfAvailable { Claim.named(JSONStringSpan(raw: $0, hasEscapes: false)) }
            guard let found = claim ?? Claim.allCases.first(where: { $0.name.isByteIdentical(to: name) }) else { return nil }
            self = found
        }

        /// The claim a member name denotes, compared by decoded bytes.
        static func named(_ name: JSONStringSpan) -> Claim? {
            if !name.hasEscapes {
                guard name.raw.count == 3 else { return nil }
                switch (name.raw[0], name.raw[1], name.raw[2]) {
                case (UInt8(ascii: "i"), UInt8(ascii: "s"), UInt8(ascii: "s")): return .iss
                case (UInt8(ascii: "s"), UInt8(ascii: "u"), UInt8(ascii: "b")): return .sub
                case (UInt8(ascii: "a"), UInt8(ascii: "u"), UInt8(ascii: "d")): return .aud
                case (UInt8(ascii: "e"), UInt8(ascii: "x"), UInt8(ascii: "p")): return .exp
                case (UInt8(ascii: "n"), UInt8(ascii: "b"), UInt8(ascii: "f")): return .nbf
                case (UInt8(ascii: "i"), UInt8(ascii: "a"), UInt8(ascii: "t")): return .iat
                case (UInt8(ascii: "j"), UInt8(ascii: "t"), UInt8(ascii: "i")): return .jti
                default: return nil
                }
            }
            return allCases.first { name.equals($0.name) }
        }
    }

    /// Where a claim's value is, in 24 bytes (the view is copied by value): for a string its
    /// text between the quotes (read it with ``text(_:)``), for a number or an array its text.
    struct Value {
        var kind = JSONKind.absent
        /// For a string: whether its text has escapes.
        var hasEscapes = false
        /// For an array: whether every element is a string.
        var allStrings = true
        var start: UInt32 = 0
        var end: UInt32 = 0
        /// For an array: how many elements it has.
        var elements: UInt32 = 0
        /// For a number: its value, as `Double(literal)` computes it (read once, when the
        /// number is lexed, however many rules look at it).
        var number: Double = 0
    }

    private let input: UnsafeBufferPointer<UInt8>
    /// The caller's required names, borrowed while the payload is read (and emptied before
    /// the view is returned): the view holds no reference, so copying it counts nothing.
    private var requiredNames: UnsafeBufferPointer<String>
    private var values = (Value(), Value(), Value(), Value(), Value(), Value(), Value())
    /// Bit `i` set when `requiredNames[i]` is a top-level member (names past 64 in `overflow`).
    private var present: UInt64 = 0
    private var presentOverflow: [Bool]?
    /// Open containers (the payload object is depth 1).
    private var depth = 0
    /// The registered claim whose value is being read at depth 1.
    private var current: Claim?

    /// For each registered claim, byte `rawValue` holds one more than the index of its name
    /// in `requiredNames` when below 64, else 0: a required registered claim is marked
    /// present without comparing names. Packed in one integer so reading it is a shift, not
    /// a store and reload through memory.
    private var requiredIndexOfClaim: UInt64 = 0
    /// Whether some required name is not a registered claim (or sits at index 64 or later):
    /// only then is each member name compared with the required names.
    private var comparesRequiredNames = false

    private init(input: UnsafeBufferPointer<UInt8>, requiredNames: UnsafeBufferPointer<String>) {
        self.input = input
        self.requiredNames = requiredNames
    }

    /// Takes the required names for the read (see ``requiredNames``), noting which are
    /// registered claims.
    private mutating func borrowRequiredNames(_ requiredNames: UnsafeBufferPointer<String>) {
        self.requiredNames = requiredNames
        for (index, name) in requiredNames.enumerated() {
            if index < 64, let claim = Claim(exactName: name) {
                setRequiredIndex(Int8(index), of: claim)
            } else {
                comparesRequiredNames = true
            }
        }
    }

    private mutating func setRequiredIndex(_ index: Int8, of claim: Claim) {
        let shift = UInt64(claim.rawValue * 8)
        requiredIndexOfClaim = requiredIndexOfClaim & ~(0xFF << shift) | UInt64(UInt8(index) + 1) << shift
    }

    /// The index of `claim`'s name in `requiredNames`, or -1.
    private func requiredIndex(of claim: Claim) -> Int8 {
        Int8(truncatingIfNeeded: (requiredIndexOfClaim >> UInt64(claim.rawValue * 8)) & 0xFF) - 1
    }

    /// Reads `payload`, which must be one JSON object; throws the lexer's error otherwise.
    /// `requiredNames` are the member names ``isPresent(requiredAt:)`` answers for.
    static func read(_ payload: UnsafeBufferPointer<UInt8>, maxDepth: Int, requiredNames: [String] = []) throws(JSONSyntaxError) -> RegisteredClaimsView {
        var view = RegisteredClaimsView(input: payload, requiredNames: UnsafeBufferPointer(start: nil, count: 0))
        try requiredNames.withUnsafeBufferPointer { names throws(JSONSyntaxError) in
            view.borrowRequiredNames(names)
            defer { view.requiredNames = UnsafeBufferPointer(start: nil, count: 0) }
            try JSONLexer.read(payload, maxDepth: maxDepth, requireObject: true, into: &view)
        }
        return view
    }

    // MARK: Reading the claims

    /// A claim's value (kind `.absent` when the payload has no such member).
    subscript(claim: Claim) -> Value {
        get {
            switch claim {
            case .iss: values.0
            case .sub: values.1
            case .aud: values.2
            case .exp: values.3
            case .nbf: values.4
            case .iat: values.5
            case .jti: values.6
            }
        }
        set {
            switch claim {
            case .iss: values.0 = newValue
            case .sub: values.1 = newValue
            case .aud: values.2 = newValue
            case .exp: values.3 = newValue
            case .nbf: values.4 = newValue
            case .iat: values.5 = newValue
            case .jti: values.6 = newValue
            }
        }
    }

    /// Whether `requiredNames[index]` is a top-level member.
    func isPresent(requiredAt index: Int) -> Bool {
        index < 64 ? present & (1 << UInt64(index)) != 0 : presentOverflow?[index - 64] ?? false
    }

    /// A string claim's text (`nil` for any other kind).
    func text(_ value: Value) -> JSONStringSpan? {
        guard value.kind == .string else { return nil }
        return JSONStringSpan(raw: bytes(of: value), hasEscapes: value.hasEscapes)
    }

    /// A number claim's value, as `Double(literal)` computes it (`nan` for another kind).
    func number(_ value: Value) -> Double { value.kind == .number ? value.number : .nan }

    /// The value of the number literal `input[start..<end]`, as `Double(literal)` computes it.
    private static func parseNumber(_ input: UnsafeBufferPointer<UInt8>, start: Int, end: Int) -> Double {
        var i = start
        var negative = false
        if input[i] == UInt8(ascii: "-") { negative = true; i += 1 }
        if end - i <= 15 {
            var n: Int64 = 0
            var plain = true
            for j in i..<end {
                let digit = input[j] &- UInt8(ascii: "0")
                if digit > 9 { plain = false; break }
                n = n &* 10 &+ Int64(digit)
            }
            // Integers below 2^53 convert exactly, as Double(String) does.
            if plain { return negative ? -Double(n) : Double(n) }
        }
        return Double(String(decoding: UnsafeBufferPointer(rebasing: input[start..<end]), as: UTF8.self)) ?? .nan
    }

    /// A claim's text as written: a string's between its quotes, a number's or an array's
    /// whole (empty for any other kind, whose range is never set).
    func bytes(of value: Value) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: input[Int(value.start)..<Int(value.end)])
    }

    /// A number claim's literal, as written.
    func literal(_ value: Value) -> String {
        String(decoding: bytes(of: value), as: UTF8.self)
    }

    /// Calls `body` with each element of an array claim made only of strings, in order.
    func forEachString(in value: Value, _ body: (JSONStringSpan) -> Void) {
        guard value.kind == .array, value.allStrings, value.elements > 0 else { return }
        // Re-reads the array's own text (already valid) with the same lexer.
        withoutActuallyEscaping(body) { body in
            var each = EachString(body: body)
            try? JSONLexer.read(bytes(of: value), maxDepth: 1, requireObject: false, into: &each)
        }
    }

    // MARK: JSONEvents

    mutating func objectStart() {
        if depth == 1 { record(.object) } else if depth == 2 { element(isString: false) }
        depth += 1
    }

    mutating func memberName(_ name: JSONStringSpan) {
        guard depth == 1 else { return }
        current = Claim.named(name)
        if let current {
            let index = requiredIndex(of: current)
            if index >= 0 { present |= 1 << UInt64(index) }
        }
        guard comparesRequiredNames else { return }
        for (index, required) in requiredNames.enumerated()
        where (name.hasEscapes || required.utf8.count == name.raw.count) && name.equals(required) {
            if index < 64 {
                present |= 1 << UInt64(index)
            } else {
                if presentOverflow == nil { presentOverflow = Array(repeating: false, count: requiredNames.count - 64) }
                presentOverflow?[index - 64] = true
            }
        }
    }

    mutating func objectEnd() { depth -= 1 }

    mutating func arrayStart(at offset: Int) {
        if depth == 1 {
            record(.array)
            if let current { self[current].start = UInt32(truncatingIfNeeded: offset) }
        } else if depth == 2 {
            element(isString: false)
        }
        depth += 1
    }

    mutating func arrayEnd(endingAt offset: Int) {
        depth -= 1
        if depth == 1, let current { self[current].end = UInt32(truncatingIfNeeded: offset) }
    }

    mutating func string(_ value: JSONStringSpan) {
        if depth == 1 {
            record(.string)
            if let current, let base = input.baseAddress, let text = value.raw.baseAddress {
                self[current].start = UInt32(truncatingIfNeeded: text - base)
                self[current].end = UInt32(truncatingIfNeeded: text - base + value.raw.count)
                self[current].hasEscapes = value.hasEscapes
            }
        } else if depth == 2 {
            element(isString: true)
        }
    }

    mutating func number(_ input: UnsafeBufferPointer<UInt8>, start: Int, end: Int) {
        if depth == 1 {
            record(.number)
            if let current {
                self[current].start = UInt32(truncatingIfNeeded: start)
                self[current].end = UInt32(truncatingIfNeeded: end)
                self[current].number = Self.parseNumber(input, start: start, end: end)
            }
        } else if depth == 2 {
            element(isString: false)
        }
    }

    mutating func literal(_ value: JSONLiteral) {
        if depth == 1 { record(value == .null ? .null : .boolean) } else if depth == 2 { element(isString: false) }
    }

    private mutating func record(_ kind: JSONKind) {
        if let current { self[current].kind = kind }
    }

    /// An element of an array that is a top-level member's value.
    private mutating func element(isString: Bool) {
        guard let current, self[current].kind == .array else { return }
        self[current].elements &+= 1
        if !isString { self[current].allStrings = false }
    }
}

/// Calls a function for each string of a one-level array (for
/// ``RegisteredClaimsView/forEachString(in:_:)``).
private struct EachString: JSONEvents {
    let body: (JSONStringSpan) -> Void

    mutating func string(_ value: JSONStringSpan) { body(value) }
    mutating func objectStart() {}
    mutating func memberName(_ name: JSONStringSpan) {}
    mutating func objectEnd() {}
    mutating func arrayStart(at offset: Int) {}
    mutating func arrayEnd(endingAt offset: Int) {}
    mutating func number(_ input: UnsafeBufferPointer<UInt8>, start: Int, end: Int) {}
    mutating func literal(_ value: JSONLiteral) {}
}
