/// Strict base64url (RFC 4648 §5) without padding, as JWS requires (RFC 7515 §2).
///
/// Decoding accepts only the canonical encoding: the alphabet `A–Z a–z 0–9 - _`, no `=`,
/// no whitespace, no length of the form 4k+1, and zero bits in the unused low bits of the
/// last character (so every byte string has exactly one accepted encoding).
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    private static let decodeTable: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, char) in alphabet.enumerated() { table[Int(char)] = UInt8(index) }
        return table
    }()

    /// Why a base64url string was refused.
    public struct DecodingFailure: Error, Sendable, Equatable, CustomStringConvertible {
        /// A short reason, e.g. "invalid character '=' at offset 12".
        public let reason: String
        public var description: String { reason }
    }

    /// Encodes `bytes` without padding.
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        var out = [UInt8]()
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        encode(bytes, appendingTo: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the unpadded encoding of `bytes` to `out`.
    static func encode(_ bytes: some Collection<UInt8>, appendingTo out: inout [UInt8]) {
        let done: Void? = bytes.withContiguousStorageIfAvailable { input in
            encode(UnsafeRawBufferPointer(input), appendingTo: &out)
        }
        if done == nil { encode(Array(bytes), appendingTo: &out) }
    }

    private static func encode(_ input: UnsafeRawBufferPointer, appendingTo out: inout [UInt8]) {
        let count = input.count
        let length = (count * 4 + 2) / 3
        let start = out.count
        out.append(contentsOf: repeatElement(0, count: length))
        pairTable.withUnsafeBufferPointer { pairs in
            alphabet.withUnsafeBufferPointer { table in
                out.withUnsafeMutableBufferPointer { buffer in
                    let dst = UnsafeMutableRawPointer(buffer.baseAddress!)
                    var o = start, i = 0
                    // Two characters per lookup: 12 bits index a table of character pairs.
                    while i + 3 <= count {
                        let n = Int(input[i]) << 16 | Int(input[i + 1]) << 8 | Int(input[i + 2])
                        dst.storeBytes(of: pairs[n >> 12], toByteOffset: o, as: UInt16.self)
                        dst.storeBytes(of: pairs[n & 0xFFF], toByteOffset: o + 2, as: UInt16.self)
                        i += 3
                        o += 4
                    }
                    switch count - i {
                    case 1:
                        let n = UInt32(input[i]) << 16
                        buffer[o] = table[Int(n >> 18)]
                        buffer[o + 1] = table[Int(n >> 12 & 0x3F)]
                    case 2:
                        let n = UInt32(input[i]) << 16 | UInt32(input[i + 1]) << 8
                        buffer[o] = table[Int(n >> 18)]
                        buffer[o + 1] = table[Int(n >> 12 & 0x3F)]
                        buffer[o + 2] = table[Int(n >> 6 & 0x3F)]
                    default:
                        break
                    }
                }
            }
        }
    }

    /// Every pair of alphabet characters for a 12-bit value, as the two bytes in memory order.
    private static let pairTable: [UInt16] = (0..<4096).map { v in
        let first = UInt16(alphabet[v >> 6]), second = UInt16(alphabet[v & 0x3F])
        var pair: UInt16 = 0
        withUnsafeMutableBytes(of: &pair) { $0[0] = UInt8(first); $0[1] = UInt8(second) }
        return pair
    }

    /// Decodes canonical unpadded base64url; throws a ``DecodingFailure`` naming the problem.
    public static func decode(_ text: some StringProtocol) throws(DecodingFailure) -> [UInt8] {
        var utf8 = Array(text.utf8)
        return try utf8.withUnsafeMutableBufferPointer { buffer throws(DecodingFailure) in
            try decode(UnsafeBufferPointer(buffer))
        }
    }

    /// Decodes canonical unpadded base64url from raw bytes.
    public static func decode(_ input: UnsafeBufferPointer<UInt8>) throws(DecodingFailure) -> [UInt8] {
        let count = input.count
        if count % 4 == 1 { throw DecodingFailure(reason: "length \(count) is not a valid base64url length") }
        let capacity = decodedLength(count)
        // Decoded into a temporary buffer and copied into the array with `Array(_:)`: the
        // stdlib's specialised copy. Allocating the array first (`init(repeating:count:)`,
        // `init(unsafeUninitializedCapacity:)`) goes through its unspecialised allocator,
        // which looks up the array's generic metadata in a locked table on every call: more
        // than the copy of a few hundred bytes costs.
        let out: [UInt8]? = withUnsafeTemporaryAllocation(byteCount: max(capacity, 1), alignment: 1) { buffer in
            guard decode(input, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<capacity])) else { return nil }
            return Array(UnsafeRawBufferPointer(rebasing: buffer[0..<capacity]))
        }
        guard let out else { return try decodeReportingFailure(input) }
        return out
    }

    /// Number of bytes `count` base64url characters decode to (for a valid length).
    static func decodedLength(_ count: Int) -> Int { count / 4 * 3 + (count % 4 == 0 ? 0 : count % 4 - 1) }

    /// The fast decoder: writes `decodedLength(input.count)` bytes to `output` and returns
    /// whether `input` is canonical unpadded base64url. It accepts exactly what
    /// ``decode(_:)-(UnsafeBufferPointer<UInt8>)`` accepts; on `false`, call that for the reason.
    static func decode(_ input: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableRawBufferPointer) -> Bool {
        let count = input.count
        guard count % 4 != 1, output.count >= decodedLength(count) else { return false }
        if count == 0 { return true }
        return shiftedTables.withUnsafeBufferPointer { tables in
            // Four 256-entry tables with each character's 6 bits already shifted into place
            // for its position in a quantum; bit 31 marks a byte outside the alphabet.
            let t0 = tables.baseAddress!, t1 = t0 + 256, t2 = t0 + 512, t3 = t0 + 768
            let inp = input.baseAddress!
            let out = output.baseAddress!
            var i = 0, o = 0
            var bad: UInt32 = 0
            while i + 4 <= count {
                let n = t0[Int(inp[i])] | t1[Int(inp[i + 1])] | t2[Int(inp[i + 2])] | t3[Int(inp[i + 3])]
                bad |= n
                out.storeBytes(of: UInt8(truncatingIfNeeded: n >> 16), toByteOffset: o, as: UInt8.self)
                out.storeBytes(of: UInt8(truncatingIfNeeded: n >> 8), toByteOffset: o + 1, as: UInt8.self)
                out.storeBytes(of: UInt8(truncatingIfNeeded: n), toByteOffset: o + 2, as: UInt8.self)
                i += 4
                o += 3
            }
            switch count - i {
            case 2:
                let n = t0[Int(inp[i])] | t1[Int(inp[i + 1])]
                bad |= n
                if n & 0xFFFF != 0 { return false }  // unused low bits of the last character
                out.storeBytes(of: UInt8(truncatingIfNeeded: n >> 16), toByteOffset: o, as: UInt8.self)
            case 3:
                let n = t0[Int(inp[i])] | t1[Int(inp[i + 1])] | t2[Int(inp[i + 2])]
                bad |= n
                if n & 0xFF != 0 { return false }
                out.storeBytes(of: UInt8(truncatingIfNeeded: n >> 16), toByteOffset: o, as: UInt8.self)
                out.storeBytes(of: UInt8(truncatingIfNeeded: n >> 8), toByteOffset: o + 1, as: UInt8.self)
            default:
                break
            }
            return bad & 0x8000_0000 == 0
        }
    }

    private static let shiftedTables: [UInt32] = {
        var tables = [UInt32](repeating: 0, count: 1024)
        for position in 0..<4 {
            for byte in 0..<256 {
                let v = decodeTable[byte]
                tables[position * 256 + byte] = v == 0xFF ? 0x8000_0000 : UInt32(v) << (18 - 6 * position)
            }
        }
        return tables
    }()


    /// The original byte-at-a-time decoder: only used to name why an input was refused.
    private static func decodeReportingFailure(_ input: UnsafeBufferPointer<UInt8>) throws(DecodingFailure) -> [UInt8] {
        let count = input.count
        var out = [UInt8]()
        out.reserveCapacity(count * 3 / 4)
        try decodeTable.withUnsafeBufferPointer { table throws(DecodingFailure) in
            var index = 0
            func value(_ i: Int) throws(DecodingFailure) -> UInt32 {
                let v = table[Int(input[i])]
                if v == 0xFF {
                    let c = input[i]
                    let shown = c >= 0x21 && c < 0x7F ? "'\(Character(Unicode.Scalar(c)))'" : "byte 0x\(String(c, radix: 16))"
                    throw DecodingFailure(reason: "invalid base64url character \(shown) at offset \(i)")
                }
                return UInt32(v)
            }
            while index + 4 <= count {
                let n = try value(index) << 18 | value(index + 1) << 12 | value(index + 2) << 6 | value(index + 3)
                out.append(UInt8(truncatingIfNeeded: n >> 16))
                out.append(UInt8(truncatingIfNeeded: n >> 8))
                out.append(UInt8(truncatingIfNeeded: n))
                index += 4
            }
            switch count - index {
            case 2:
                let a = try value(index), b = try value(index + 1)
                guard b & 0x0F == 0 else { throw DecodingFailure(reason: "non-canonical base64url (unused bits set in the last character)") }
                out.append(UInt8(truncatingIfNeeded: a << 2 | b >> 4))
            case 3:
                let a = try value(index), b = try value(index + 1), c = try value(index + 2)
                guard c & 0x03 == 0 else { throw DecodingFailure(reason: "non-canonical base64url (unused bits set in the last character)") }
                out.append(UInt8(truncatingIfNeeded: a << 2 | b >> 4))
                out.append(UInt8(truncatingIfNeeded: (b & 0x0F) << 4 | c >> 2))
            default:
                break
            }
        }
        return out
    }
}
