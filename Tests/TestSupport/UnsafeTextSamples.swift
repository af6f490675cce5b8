/// Characters that must never reach a terminal raw (issue 23 item 6), one or more from every
/// class the terminal-output cleaner covers, written out here independently of the cleaner's
/// own definition so that tests check it against this list rather than against itself.
public enum UnsafeTextSamples {
    /// Each sample with the name of its class.
    public static let all: [(name: String, scalar: Unicode.Scalar)] = [
        ("NUL", "\u{0000}"), ("BEL", "\u{0007}"), ("BS", "\u{0008}"), ("TAB", "\u{0009}"), ("LF", "\u{000A}"),
        ("CR", "\u{000D}"), ("ESC", "\u{001B}"), ("US", "\u{001F}"),
        ("DEL", "\u{007F}"),
        ("C1 PAD", "\u{0080}"), ("C1 NEL", "\u{0085}"), ("C1 CSI", "\u{009B}"), ("C1 APC", "\u{009F}"),
        ("ALM", "\u{061C}"), ("LRM", "\u{200E}"), ("RLM", "\u{200F}"),
        ("LRE", "\u{202A}"), ("RLE", "\u{202B}"), ("PDF", "\u{202C}"), ("LRO", "\u{202D}"), ("RLO", "\u{202E}"),
        ("LRI", "\u{2066}"), ("RLI", "\u{2067}"), ("FSI", "\u{2068}"), ("PDI", "\u{2069}"),
        ("LINE SEPARATOR", "\u{2028}"), ("PARAGRAPH SEPARATOR", "\u{2029}"),
        ("ZWSP", "\u{200B}"), ("ZWNJ", "\u{200C}"), ("ZWJ", "\u{200D}"),
        ("WORD JOINER", "\u{2060}"), ("FUNCTION APPLICATION", "\u{2061}"), ("INVISIBLE TIMES", "\u{2062}"),
        ("INVISIBLE SEPARATOR", "\u{2063}"), ("INVISIBLE PLUS", "\u{2064}"),
        ("BOM", "\u{FEFF}"), ("SOFT HYPHEN", "\u{00AD}"),
        ("LANGUAGE TAG", "\u{E0001}"), ("TAG SPACE", "\u{E0020}"), ("TAG A", "\u{E0041}"), ("CANCEL TAG", "\u{E007F}"),
        ("ARABIC NUMBER SIGN (Cf)", "\u{0600}"), ("MONGOLIAN VOWEL SEPARATOR (Cf)", "\u{180E}"),
        ("INTERLINEAR ANNOTATION ANCHOR (Cf)", "\u{FFF9}"),
        ("COMBINING GRAPHEME JOINER (ignorable)", "\u{034F}"), ("HANGUL CHOSEONG FILLER (ignorable)", "\u{115F}"),
        ("HANGUL FILLER (ignorable)", "\u{3164}"), ("VARIATION SELECTOR-16 (ignorable)", "\u{FE0F}"),
        ("VARIATION SELECTOR-17 (ignorable)", "\u{E0100}"),
    ]

    /// Printable text of several scripts that must pass unchanged (next to the samples, it
    /// shows that only the unsafe scalars are touched).
    public static let printable = "café ß € 日本 \u{212A} 😀 e\u{0301} \u{05D0}"

    /// `text` with every scalar outside printable ASCII written as a JSON `\uXXXX` escape
    /// (a surrogate pair above U+FFFF), and `"` and `\` escaped: for building token JSON that
    /// carries the samples whatever the JSON writer of the test would do with them.
    public static func jsonEscaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case " "..."~": out.unicodeScalars.append(scalar)
            default:
                for unit in String(scalar).utf16 { out += "\\u" + hex4(unit) }
            }
        }
        return out
    }

    /// The scalars of `text` that are samples, by name (empty when none is there raw).
    public static func rawSamples(in text: String) -> [String] {
        let present = Set(text.unicodeScalars)
        return all.filter { present.contains($0.scalar) }.map(\.name)
    }

    private static func hex4(_ unit: UInt16) -> String {
        let digits = String(unit, radix: 16)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }
}
