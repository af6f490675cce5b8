/// Canonical unpadded base64url for ``JWTQuickScanner``: the same acceptance rules as
/// ``Base64URL/decode(_:)-(UnsafeBufferPointer<UInt8>)`` (alphabet only, no `=`, no length
/// 4k+1, zero unused bits), decoding into a caller's buffer instead of a new array.
enum QuickBase64URL {
    /// 6-bit values by byte; 0xFF for bytes outside the alphabet. A plain pointer, allocated
    /// once and never freed, so that workers on several cores read it without touching a
    /// shared reference count.
    private nonisolated(unsafe) static let tablePointer: UnsafePointer<UInt8> = {
        let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
        table.initialize(repeating: 0xFF, count: 256)
        for (index, char) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8.enumerated() {
            table[Int(char)] = UInt8(index)
        }
        return UnsafePointer(table)
    }()

    /// Appends the decoding of `input[from..<to]` to `out`; `false` (with `out` partly
    /// appended) when that range is not canonical base64url.
    static func decode(_ input: UnsafeRawBufferPointer, from: Int, to: Int, into out: inout [UInt8]) -> Bool {
        let count = to - from
        guard count % 4 != 1 else { return false }
        let start = out.count
        out.append(contentsOf: repeatElement(0, count: count / 4 * 3 + max(0, count % 4 - 1)))
        let table = tablePointer
        return out.withUnsafeMutableBufferPointer { output in
                var index = from, write = start
                var bad: UInt8 = 0
                while index + 4 <= to {
                    let a = table[Int(input[index])], b = table[Int(input[index + 1])]
                    let c = table[Int(input[index + 2])], d = table[Int(input[index + 3])]
                    bad |= (a | b | c | d) & 0xC0
                    let n = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
                    output[write] = UInt8(truncatingIfNeeded: n >> 16)
                    output[write + 1] = UInt8(truncatingIfNeeded: n >> 8)
                    output[write + 2] = UInt8(truncatingIfNeeded: n)
                    index += 4
                    write += 3
                }
                switch to - index {
                case 2:
                    let a = table[Int(input[index])], b = table[Int(input[index + 1])]
                    bad |= (a | b) & 0xC0
                    guard b & 0x0F == 0 else { return false }
                    output[write] = UInt8(truncatingIfNeeded: a << 2 | b >> 4)
                case 3:
                    let a = table[Int(input[index])], b = table[Int(input[index + 1])], c = table[Int(input[index + 2])]
                    bad |= (a | b | c) & 0xC0
                    guard c & 0x03 == 0 else { return false }
                    output[write] = UInt8(truncatingIfNeeded: a << 2 | b >> 4)
                    output[write + 1] = UInt8(truncatingIfNeeded: (b & 0x0F) << 4 | c >> 2)
                default:
                    break
                }
                return bad == 0
        }
    }

    /// Whether `input[from..<to]` is canonical unpadded base64url (checked without decoding).
    static func isCanonical(_ input: UnsafeRawBufferPointer, from: Int, to: Int) -> Bool {
        let count = to - from
        guard count % 4 != 1 else { return false }
        let table = tablePointer
        var bad: UInt8 = 0
        for index in from..<to { bad |= table[Int(input[index])] & 0xC0 }
        guard bad == 0 else { return false }
        switch count % 4 {
        case 2: return table[Int(input[to - 1])] & 0x0F == 0
        case 3: return table[Int(input[to - 1])] & 0x03 == 0
        default: return true
        }
    }
}
