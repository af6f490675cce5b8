/// Identifier comparison as RFC 7519 §7.3 and RFC 7515 want it: by code points, with no
/// Unicode normalisation. Swift's `String ==` is canonical equivalence (U+212A KELVIN SIGN
/// equals "K", a decomposed "é" equals the precomposed one), which would let a token's
/// `iss`, `aud`, `sub`, `kid` or a member name match a different configured string. Every
/// identifier comparison in TokenKit goes through here: equal UTF-8 bytes, nothing else.
extension String {
    /// Whether the two strings have exactly the same UTF-8 bytes.
    @inline(__always)
    func isByteIdentical(to other: String) -> Bool {
        let count = utf8.count
        guard count == other.utf8.count else { return false }
        // Native strings (all of them on Linux) have contiguous UTF-8, compared in place; the
        // generic element-by-element comparison is only the fallback for other storage.
        let compared: Bool?? = utf8.withContiguousStorageIfAvailable { lhs in
            other.utf8.withContiguousStorageIfAvailable { rhs in
                guard let a = lhs.baseAddress else { return count == 0 }
                return memcmpEqual(a, rhs.baseAddress, count)
            }
        }
        if let compared, let result = compared { return result }
        return utf8.elementsEqual(other.utf8)
    }

    /// ASCII-only lowercasing (for `typ`, whose media type is compared case-insensitively
    /// per RFC 7515 §4.1.9 and RFC 2045: only ASCII letters fold, nothing else changes).
    var asciiLowercased: String {
        guard utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) else { return self }
        return String(decoding: utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
    }
}

extension Sequence<String> {
    /// Whether some element has exactly the UTF-8 bytes of `value`.
    func containsByteIdentical(_ value: String) -> Bool { contains { $0.isByteIdentical(to: value) } }
}

/// A string hashed and compared by its UTF-8 bytes, for dictionaries and sets of
/// identifiers (JSON member names, key IDs).
struct ExactKey: Hashable, Sendable {
    let text: String

    init(_ text: String) { self.text = text }

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.text.isByteIdentical(to: rhs.text) }

    func hash(into hasher: inout Hasher) {
        let hashed: Void? = text.utf8.withContiguousStorageIfAvailable { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        if hashed == nil {
            for byte in text.utf8 { hasher.combine(byte) }
        }
        hasher.combine(text.utf8.count)
    }
}
