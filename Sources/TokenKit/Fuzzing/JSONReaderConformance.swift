/// The property the JSON reader fuzz target (`Fuzz/JSONReader`) and its seed-corpus test
/// check on every input: the full `JSONValue` builder and every non-allocating claims view
/// agree.
///
/// Today the package has one builder (``StrictJSONParser``) and two views over the same bytes:
/// ``ClaimsScanner`` (the verify fast path) and ``StrictJSONScanner`` (the audit scanner). For
/// each view, and for each nesting limit checked:
/// - a view that accepts an input implies the builder accepts it, and every value the view
///   reports (registered claims, member names) equals the builder's;
/// - a view may decline only for the reasons its documentation names (escapes, non-ASCII or
///   control bytes, more members than its cap); on an input with none of them it accepts
///   exactly when the builder does.
///
/// When the reader becomes one lexer feeding both the builder and the claims view, this
/// function must keep comparing the two over the same input (then with no decline reasons):
/// the fuzz target calls only this.
package enum JSONReaderConformance {
    /// Nesting limits every input is checked under: the default and a tight one (so the
    /// depth rule itself is compared, not only documents that fit comfortably).
    package static let depthsChecked = [ParsingLimits.default.maxDepth, 2]

    /// Returns `nil` when the builder and every view agree on `bytes`, or a one-line
    /// description of the first disagreement (which names the view and the rule, never
    /// the input's text).
    package static func disagreement(in bytes: [UInt8]) -> String? {
        for depth in depthsChecked {
            if let problem = disagreement(in: bytes, maxDepth: depth) { return "maxDepth \(depth): \(problem)" }
        }
        return nil
    }

    /// The same check under one nesting limit.
    package static func disagreement(in bytes: [UInt8], maxDepth: Int) -> String? {
        let built = try? StrictJSONParser.parseObject(bytes, maxDepth: maxDepth)
        let features = InputFeatures(bytes)
        if let problem = claimsScannerDisagreement(bytes, maxDepth: maxDepth, built: built, features: features) {
            return "ClaimsScanner: \(problem)"
        }
        if let problem = auditScannerDisagreement(bytes, maxDepth: maxDepth, built: built, features: features) {
            return "StrictJSONScanner: \(problem)"
        }
        return nil
    }

    // MARK: - The verify view

    private static func claimsScannerDisagreement(_ bytes: [UInt8], maxDepth: Int, built: JSONObject?,
                                                  features: InputFeatures) -> String? {
        let verdict: String?? = bytes.withUnsafeBufferPointer { buffer in
            ClaimsScanner.scan(buffer, maxDepth: maxDepth) { scan -> String? in
                guard let built else { return "accepts an input the builder refuses" }
                return scannedClaimsDisagreement(scan, built)
            }
        }
        switch verdict {
        case .some(let problem):
            return problem
        case .none:
            // Declined. Allowed only for a reason the view documents.
            guard built != nil else { return nil }
            let declineAllowed = features.hasBackslash || features.hasNonASCII
                || (built.map { largestObject(.object($0)) } ?? 0) > ClaimsScanner.maxMembers
            return declineAllowed ? nil : "declines an input the builder accepts, with no documented reason"
        }
    }

    private static func scannedClaimsDisagreement(_ scan: ClaimsScanner, _ built: JSONObject) -> String? {
        if scan.nameCount != built.count { return "reports \(scan.nameCount) members, the builder \(built.count)" }
        for name in built.keys where !scan.hasMember(name) { return "misses a member name the builder has" }
        let claims: [(String, ClaimsScanner.Value)] = [
            ("iss", scan.iss), ("sub", scan.sub), ("aud", scan.aud), ("exp", scan.exp), ("nbf", scan.nbf), ("iat", scan.iat),
        ]
        for (name, value) in claims {
            if let problem = valueDisagreement(scan, value, built[name]) { return "\(name): \(problem)" }
        }
        return nil
    }

    private static func valueDisagreement(_ scan: ClaimsScanner, _ value: ClaimsScanner.Value, _ built: JSONValue?) -> String? {
        switch (value.kind, built) {
        case (.absent, nil):
            return nil
        case (.string, .string(let string)?):
            return scan.stringEquals(value, string) ? nil : "string differs"
        case (.number, .number(let number)?):
            let scanned = scan.number(value)
            let same = scanned == number.doubleValue || (scanned.isNaN && number.doubleValue.isNaN)
            return same ? nil : "number differs"
        case (.array, .array(let elements)?):
            var ranges: [(start: Int, end: Int)] = []
            let allStrings = scan.forEachString(inArray: value) { start, end in ranges.append((start, end)) }
            let builtStrings = elements.compactMap(\.stringValue)
            if allStrings != (builtStrings.count == elements.count) { return "array element types differ" }
            guard allStrings else { return nil }
            guard ranges.count == builtStrings.count else { return "array lengths differ" }
            for (range, string) in zip(ranges, builtStrings) {
                var string = string
                guard string.withUTF8({ scan.equal(range.start, range.end, $0) }) else { return "array strings differ" }
            }
            return nil
        case (.object, .object?), (.literal, .bool?), (.literal, .null?):
            return nil
        default:
            return "type differs (\(value.kind) vs \(built?.typeName ?? "absent"))"
        }
    }

    // MARK: - The audit view

    private static func auditScannerDisagreement(_ bytes: [UInt8], maxDepth: Int, built: JSONObject?,
                                                 features: InputFeatures) -> String? {
        var names: [String] = []
        let accepted = bytes.withUnsafeBufferPointer { buffer in
            var scanner = StrictJSONScanner(buffer, maxDepth: maxDepth, names: [])
            return scanner.topLevelObject { scanner, name in
                names.append(String(decoding: UnsafeBufferPointer(rebasing: buffer[name.start..<(name.start + name.count)]),
                                    as: UTF8.self))
                return scanner.value(depth: 1)
            }
        }
        guard let built else { return accepted ? "accepts an input the builder refuses" : nil }
        guard accepted else {
            // Declined: escaped or non-ASCII member names, or an object over the member cap.
            let declineAllowed = features.hasBackslash || features.hasNonASCII
                || largestObject(.object(built)) > auditMemberCap
            return declineAllowed ? nil : "declines an input the builder accepts, with no documented reason"
        }
        return names == built.keys ? nil : "member names differ from the builder's"
    }

    // MARK: - Helpers

    /// The audit scanner's documented member cap per object (its own constant is private).
    private static let auditMemberCap = 64

    /// Byte-level facts that allow a view to decline.
    private struct InputFeatures {
        var hasBackslash = false
        var hasNonASCII = false

        init(_ bytes: [UInt8]) {
            for byte in bytes {
                if byte == UInt8(ascii: "\\") { hasBackslash = true }
                if byte >= 0x80 { hasNonASCII = true }
            }
        }
    }

    /// The largest member count of any object in `value`.
    private static func largestObject(_ value: JSONValue) -> Int {
        switch value {
        case .object(let object): object.reduce(object.count) { max($0, largestObject($1.value)) }
        case .array(let elements): elements.reduce(0) { max($0, largestObject($1)) }
        default: 0
        }
    }
}
