/// Validation of one multi-byte UTF-8 sequence (RFC 3629: no overlong forms, no surrogates,
/// nothing above U+10FFFF), shared by the strict JSON parser and the quick scanner so that
/// both accept exactly the same strings.
enum UTF8Sequence {
    /// What ``check(_:at:)`` found.
    enum Check {
        /// A valid sequence of `length` bytes.
        case valid(length: Int)
        /// A valid lead byte whose sequence runs past the end of the input.
        case truncated
        /// Not valid UTF-8.
        case invalid
    }

    /// Checks the sequence whose lead byte (at least 0x80) is at `index`.
    static func check(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Check {
        let length: Int
        var lower: UInt8 = 0x80, upper: UInt8 = 0xBF
        switch bytes[index] {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; lower = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; upper = 0x9F
        case 0xF0: length = 4; lower = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; upper = 0x8F
        default: return .invalid
        }
        guard index + length <= bytes.count else { return .truncated }
        guard (lower...upper).contains(bytes[index + 1]) else { return .invalid }
        for offset in 2..<max(2, length) where !(0x80...0xBF).contains(bytes[index + offset]) { return .invalid }
        return .valid(length: length)
    }
}
