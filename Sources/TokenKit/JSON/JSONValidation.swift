/// Events that only let ``JSONLexer`` validate a text (nothing is recorded).
struct JSONValidation: JSONEvents {
    mutating func objectStart() {}
    mutating func memberName(_ name: JSONStringSpan) {}
    mutating func objectEnd() {}
    mutating func arrayStart(at offset: Int) {}
    mutating func arrayEnd(endingAt offset: Int) {}
    mutating func string(_ value: JSONStringSpan) {}
    mutating func number(_ input: UnsafeBufferPointer<UInt8>, start: Int, end: Int) {}
    mutating func literal(_ value: JSONLiteral) {}

    /// Whether `input` is one valid JSON object under `maxDepth` (the lexer's rules).
    static func isObject(_ input: UnsafeBufferPointer<UInt8>, maxDepth: Int) -> Bool {
        var events = JSONValidation()
        do throws(JSONSyntaxError) {
            try JSONLexer.read(input, maxDepth: maxDepth, requireObject: true, into: &events)
            return true
        } catch {
            return false
        }
    }
}
