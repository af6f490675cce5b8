internal import TokenKitPrimitives

/// The property the JSON reader fuzz target (`fuzz-json-reader`) and its seed-corpus test
/// check on every input: the `JSONValue` builder (``StrictJSONParser``) and the
/// allocation-free registered-claims view (``RegisteredClaimsView``), both fed by the one
/// ``JSONLexer``, accept exactly the same inputs, refuse the others with the same reason,
/// and agree on every value the view reports (registered claims, member presence).
package enum JSONReaderConformance {
    /// Nesting limits every input is checked under: the default and a tight one (so the
    /// depth rule itself is compared, not only documents that fit comfortably).
    package static let depthsChecked = [ParsingLimits.default.maxDepth, 2]

    /// Returns `nil` when the builder and the view agree on `bytes`, or a one-line
    /// description of the first disagreement (which names the rule, never the input's text).
    package static func disagreement(in bytes: [UInt8]) -> String? {
        for depth in depthsChecked {
            if let problem = disagreement(in: bytes, maxDepth: depth) { return "maxDepth \(depth): \(problem)" }
        }
        return nil
    }

    /// The same check under one nesting limit.
    package static func disagreement(in bytes: [UInt8], maxDepth: Int) -> String? {
        let built: Result<JSONObject, JSONSyntaxError>
        do throws(JSONSyntaxError) { built = .success(try StrictJSONParser.parseObject(bytes, maxDepth: maxDepth)) } catch { built = .failure(error) }
        // Required names: every member the builder found, plus one it did not.
        let absentName = "\u{1}absent"
        var names = (try? built.get())?.keys ?? []
        names.append(absentName)
        return bytes.withUnsafeBufferPointer { buffer -> String? in
            let view: RegisteredClaimsView
            do throws(JSONSyntaxError) {
                view = try RegisteredClaimsView.read(buffer, maxDepth: maxDepth, requiredNames: names)
            } catch {
                switch built {
                case .success: return "the view refuses an input the builder accepts"
                case .failure(let builderError):
                    return builderError.reason == error.reason ? nil : "the view and the builder refuse for different reasons"
                }
            }
            guard case .success(let object) = built else { return "the view accepts an input the builder refuses" }
            for index in names.indices where view.isPresent(requiredAt: index) != (names[index] != absentName) {
                return "member presence differs"
            }
            for claim in RegisteredClaimsView.Claim.allCases {
                if let problem = valueDisagreement(view, view[claim], object[claim.name]) { return "\(claim.name): \(problem)" }
            }
            return nil
        }
    }

    private static func valueDisagreement(_ view: RegisteredClaimsView, _ value: RegisteredClaimsView.Value, _ built: JSONValue?) -> String? {
        switch (value.kind, built) {
        case (.absent, nil):
            return nil
        case (.string, .string(let string)?):
            return view.text(value)?.decoded.isByteIdentical(to: string) == true ? nil : "string differs"
        case (.number, .number(let number)?):
            let read = view.number(value)
            let same = read == number.doubleValue || (read.isNaN && number.doubleValue.isNaN)
            return same && view.literal(value) == number.literal ? nil : "number differs"
        case (.array, .array(let elements)?):
            let strings = elements.compactMap(\.stringValue)
            if Int(value.elements) != elements.count { return "array lengths differ" }
            if value.allStrings != (strings.count == elements.count) { return "array element types differ" }
            var read: [String] = []
            view.forEachString(in: value) { read.append($0.decoded) }
            let expected = value.allStrings ? strings : []
            return read.count == expected.count && zip(read, expected).allSatisfy({ $0.isByteIdentical(to: $1) }) ? nil : "array strings differ"
        case (.object, .object?), (.boolean, .bool?), (.null, .null?):
            return nil
        default:
            return "type differs (\(value.kind.typeName) vs \(built?.typeName ?? "absent"))"
        }
    }
}
