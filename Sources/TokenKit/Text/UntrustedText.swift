/// The one character class and the one cleaner for untrusted text (claims, header values, key
/// IDs, stored account names, file names) before it reaches a terminal, a table, a log line or
/// an error reason.
///
/// ``isUnsafe(_:)`` is the class: every scalar that can change what a terminal shows without
/// being seen itself. It is used two ways, and only these two:
/// - ``sanitized(_:maxCharacters:replacement:)`` replaces each such scalar (the library's error
///   reasons, the audit table, `tokenkit store` output, the CLI's stderr lines);
/// - `JSONStringEscaping` with its `terminal` profile writes each as a `\uXXXX` escape (the
///   CLI's JSON output), so the JSON stays valid and decodes to the same string.
///
/// The class (Unicode general categories and properties of the Swift runtime's Unicode data):
/// - **Cc**: C0 controls U+0000–U+001F (ESC starts terminal escape sequences), DEL U+007F and
///   the C1 controls U+0080–U+009F (U+009B is a one-byte CSI on some terminals, U+0085 a line
///   break);
/// - **Zl, Zp**: U+2028 LINE SEPARATOR and U+2029 PARAGRAPH SEPARATOR (line breaks for many
///   viewers and for JavaScript);
/// - **Cf**, all of it: the bidirectional marks, embeddings, overrides and isolates (U+061C,
///   U+200E, U+200F, U+202A–U+202E, U+2066–U+2069, which reorder what is shown), zero-width
///   space, non-joiner and joiner (U+200B–U+200D), word joiner and the invisible operators
///   (U+2060–U+2064), the BOM U+FEFF, the soft hyphen U+00AD, the tag characters
///   U+E0001 and U+E0020–U+E007F (invisible text), and the rest of the category (Arabic
///   number signs, interlinear annotation U+FFF9–U+FFFB, Egyptian and shorthand format
///   controls…). Joiners inside emoji sequences are escaped or replaced too: what is shown
///   can change, what the text says cannot be hidden;
/// - **Default_Ignorable_Code_Point**: what a renderer must draw as nothing when it does not
///   know it: besides the Cf characters above, the variation selectors (U+FE00–U+FE0F,
///   U+E0100–U+E01EF), the Hangul fillers (U+115F, U+1160, U+3164, U+FFA0), the combining
///   grapheme joiner U+034F, U+17B4, U+17B5, U+180B–U+180F, and the unassigned code points
///   reserved as ignorable (e.g. U+2065, U+E0000–U+E0FFF outside the tags).
///
/// Not in the class: printable characters of every script, including look-alikes (U+212A
/// KELVIN SIGN is shown as K: comparisons are exact elsewhere, see `ExactText`), private-use
/// and unassigned code points that are not default-ignorable, and combining marks (they
/// decorate a visible base character).
public enum UntrustedText {
    /// Whether `scalar` is in the class (see the type): replaced by
    /// ``sanitized(_:maxCharacters:replacement:)``, escaped by the terminal JSON profile.
    @inline(__always)
    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x7F { return value < 0x20 }
        if value <= 0x9F { return true }
        if value < 0xAD { return false }
        return isUnsafeAboveLatin1Controls(scalar)
    }

    /// ``isUnsafe(_:)`` for scalars from U+00AD up: the Unicode tables.
    private static func isUnsafeAboveLatin1Controls(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        switch properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator: return true
        default: return properties.isDefaultIgnorableCodePoint
        }
    }

    /// `text` with every unsafe scalar replaced by `replacement`, cut to `maxCharacters`
    /// scalars (the last being `…` when the text was cut). Nothing else is escaped or changed:
    /// this makes text safe to show, not safe to embed in JSON, shell or HTML.
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
