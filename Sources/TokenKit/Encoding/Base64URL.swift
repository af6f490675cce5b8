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
        var iterator = bytes.makeIterator()
        while let b0 = iterator.next() {
            let b1 = iterator.next(), b2 = iterator.next()
            out.append(alphabet[Int(b0 >> 2)])
            out.append(alphabet[Int((b0 & 0x03) << 4 | (b1 ?? 0) >> 4)])
            if let b1 { out.append(alphabet[Int((b1 & 0x0F) << 2 | (b2 ?? 0) >> 6)]) }
            if let b2 { out.append(alphabet[Int(b2 & 0x3F)]) }
        }
        return String(decoding: out, as: UTF8.self)
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
