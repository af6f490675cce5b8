/// Making untrusted claim text safe to show on a terminal or in a table.
public enum DisplayText {
    /// `text` with control characters (C0, DEL, C1) replaced by `?`, cut to
    /// `maxCharacters` characters (ending in `…` when cut). Does not escape anything else.
    public static func sanitized(_ text: String, maxCharacters: Int = .max) -> String {
        var clean = true
        var count = 0
        for scalar in text.unicodeScalars {
            count += 1
            if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) { clean = false; break }
        }
        if clean && count <= maxCharacters { return text }
        var out = String.UnicodeScalarView()
        var taken = 0
        for scalar in text.unicodeScalars {
            if taken == maxCharacters - 1 && text.unicodeScalars.count > maxCharacters {
                out.append("…")
                break
            }
            out.append(scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) ? "?" : scalar)
            taken += 1
        }
        return String(out)
    }
}
