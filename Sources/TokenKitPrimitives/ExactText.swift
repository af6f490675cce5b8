/// Identifier comparison as RFC 7519 §7.3 and RFC 7515 want it: by code points, with no
/// Unicode normalisation. Swift's `String ==` is canonical equivalence (U+212A KELVIN SIGN
/// equals "K", a decomposed "é" equals the precomposed one), which would let a token's
/// `iss`, `aud`, `sub`, `kid`, a scope, a role or a member name match a different configured
/// string. Every identifier comparison in TokenKit goes through here (or through
/// ``ExactKey`` for sets and dictionaries): equal UTF-8 bytes, nothing else.
extension String {
    /// Whether the two strings have exactly the same UTF-8 bytes (no Unicode normalisation,
    /// no case folding). Not constant time: for secrets use ``ConstantTime``.
    @inlinable @inline(__always)
    public func isByteIdentical(to other: String) -> Bool {
        let count = utf8.count
        guard count == other.utf8.count else { return false }
        // Native strings (all of them on Linux) have contiguous UTF-8, compared in place; the
        // generic element-by-element comparison is only the fallback for other storage.
        let compared: Bool?? = utf8.withContiguousStorageIfAvailable { lhs in
            other.utf8.withContiguousStorageIfAvailable { rhs in
                guard let a = lhs.baseAddress else { return count == 0 }
                return bytesEqual(a, rhs.baseAddress, count: count)
            }
        }
        if let compared, let result = compared { return result }
        return utf8.elementsEqual(other.utf8)
    }

    /// The string with ASCII letters lowercased and nothing else changed, for the few
    /// identifiers that are ASCII-case-insensitive (a `typ` media type, RFC 2045; an
    /// `alg` of `none` looked for in any case; an OAuth `token_type`, RFC 6749 §7.1).
    /// Unlike `lowercased()`, no non-ASCII character folds (U+212A KELVIN SIGN stays, it
    /// does not become "k").
    @inlinable
    public var asciiLowercased: String {
        guard utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) else { return self }
        return String(decoding: utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
    }
}

extension String {
    /// Whether the two strings are equal once ASCII letters are lowercased (see
    /// ``asciiLowercased``): the comparison for protocol tokens that are ASCII
    /// case-insensitive — HTTP field names (RFC 9110 §5.1), URL schemes and host names,
    /// `Cache-Control` directives. No Unicode case mapping: U+212A KELVIN SIGN never equals
    /// "k".
    @inlinable
    public func isASCIICaseInsensitiveEqual(to other: String) -> Bool {
        asciiLowercased.isByteIdentical(to: other.asciiLowercased)
    }
}

extension Sequence<String> {
    /// Whether some element has exactly the UTF-8 bytes of `value` (see
    /// ``Swift/String/isByteIdentical(to:)``).
    @inlinable
    public func containsByteIdentical(_ value: String) -> Bool { contains { $0.isByteIdentical(to: value) } }
}

extension String {
    /// Whether the UTF-8 bytes of `fragment` occur, contiguously, in this string's UTF-8
    /// (a byte search: no Unicode normalisation, unlike `String.contains(_:)`). An empty
    /// fragment is always found.
    public func containsBytes(of fragment: String) -> Bool {
        let haystack = Array(utf8), needle = Array(fragment.utf8)
        guard !needle.isEmpty else { return true }
        guard needle.count <= haystack.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if haystack[start..<(start + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }
}
