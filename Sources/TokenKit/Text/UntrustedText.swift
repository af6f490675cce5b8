/// The one cleaner for untrusted text (claims, header values, key IDs, file names) before
/// it reaches an error reason, a terminal or a table. The library's error reasons, the
/// audit's display and the CLI's `error:` lines all go through ``sanitized(_:maxCharacters:replacement:)``.
///
/// Guarantees: the result contains no C0 or C1 control character, no DEL, no line or
/// paragraph separator and no bidirectional formatting character (LRM/RLM/ALM, embeddings,
/// overrides and isolates, which can reorder what a terminal shows); each is replaced by
/// `replacement`. At most `maxCharacters` characters are kept (the last being `…` when the
/// text was cut). Nothing else is escaped or changed: this makes text safe to show, not
/// safe to embed in JSON, shell or HTML.
public enum UntrustedText {
    /// Whether `scalar` is replaced by ``sanitized(_:maxCharacters:replacement:)``.
    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00..<0x20, 0x7F...0x9F: true
        case 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// `text` with unsafe scalars replaced and cut to `maxCharacters` (see the type's rules).
    public static func sanitized(_ text: String, maxCharacters: Int = .max, replacement: Unicode.Scalar = "?") -> String {
        let limit = max(1, maxCharacters)
        var count = 0
        var clean = true
        for scalar in text.unicodeScalars {
            count += 1
            if isUnsafe(scalar) { clean = false; break }
            if count > limit { break }
        }
        if clean && count <= limit { return text }
        let total = text.unicodeScalars.count
        var out = String.UnicodeScalarView()
        var taken = 0
        for scalar in text.unicodeScalars {
            if total > limit && taken == limit - 1 {
                out.append("…")
                break
            }
            out.append(isUnsafe(scalar) ? replacement : scalar)
            taken += 1
        }
        return String(out)
    }
}

/// Shortens untrusted names before they go into an error reason (40 characters).
enum JSONNameShortener {
    static func shorten(_ s: String) -> String { UntrustedText.sanitized(s, maxCharacters: 41) }
}
