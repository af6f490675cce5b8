/// Hex test vectors.
public enum Hex {
    /// Thrown for a vector that is not an even number of hex digits (a typo in a test).
    public struct InvalidVector: Error {
        /// The offending text.
        public let text: String
    }

    /// The bytes of a hex string (upper or lower case, no separators).
    public static func decode(_ text: String) throws -> [UInt8] {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { throw InvalidVector(text: text) }
        return try stride(from: 0, to: digits.count, by: 2).map { index in
            guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else {
                throw InvalidVector(text: text)
            }
            return byte
        }
    }
}
