import TokenKit

/// Making untrusted claim text safe to show on a terminal or in a table: forwards to
/// TokenKit's one cleaner, ``UntrustedText``.
public enum DisplayText {
    /// `text` with control characters (C0, DEL, C1) and bidirectional formatting characters
    /// replaced by `?`, cut to `maxCharacters` characters (ending in `…` when cut). Does not
    /// escape anything else.
    public static func sanitized(_ text: String, maxCharacters: Int = .max) -> String {
        UntrustedText.sanitized(text, maxCharacters: maxCharacters)
    }
}
