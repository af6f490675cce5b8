extension JSONValue {
    /// Parses JSON text strictly (RFC 8259; valid UTF-8; no duplicate member names; nesting
    /// at most `maxDepth`). Throws ``JWTError/Code/malformed`` naming the problem and offset.
    public init(parsing text: some StringProtocol, maxDepth: Int = ParsingLimits.default.maxDepth) throws(JWTError) {
        do { self = try StrictJSONParser.parse(Array(text.utf8), maxDepth: maxDepth) } catch {
            throw JWTError(code: .malformed, reason: "invalid JSON: \(error.reason)")
        }
    }

    /// Parses JSON bytes strictly; see ``init(parsing:maxDepth:)``.
    public init(parsingBytes bytes: [UInt8], maxDepth: Int = ParsingLimits.default.maxDepth) throws(JWTError) {
        do { self = try StrictJSONParser.parse(bytes, maxDepth: maxDepth) } catch {
            throw JWTError(code: .malformed, reason: "invalid JSON: \(error.reason)")
        }
    }

    /// Compact JSON text (one line: no insignificant whitespace; members in order).
    public var jsonText: String { JSONWriter.string(self) }

    /// Compact JSON text for a terminal: ``jsonText`` with every scalar of ``UntrustedText``'s
    /// class (controls, DEL, line separators, bidirectional and invisible format characters)
    /// written as a `\uXXXX` escape. It parses to the same value as ``jsonText``.
    package var terminalJSONText: String { JSONWriter.string(self, profile: .terminal) }
}

extension JWTClaims {
    /// Claims from JSON text, which must be one strict JSON object (see
    /// ``JSONValue/init(parsing:maxDepth:)``).
    public init(jsonText: some StringProtocol, maxDepth: Int = ParsingLimits.default.maxDepth) throws(JWTError) {
        let value = try JSONValue(parsing: jsonText, maxDepth: maxDepth)
        guard let object = value.objectValue else {
            throw JWTError(code: .malformed, reason: "claims must be a JSON object, found \(value.typeName)")
        }
        self.init(object)
    }
}
