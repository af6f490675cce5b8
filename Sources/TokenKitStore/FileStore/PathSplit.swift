/// Splits a file path into its directory and its last component, byte-wise on `/`, for any
/// input: relative or absolute, with repeated or trailing slashes, a bare name, `.`, `/` or
/// empty. Foundation's `NSString.deletingLastPathComponent` traps on some relative paths
/// (`--file u/c.tkstore` once crashed every store command), so store code uses this instead.
///
/// Guarantees: never traps; ``directory(of:)`` is `"."` for a bare name and `"/"` for a file
/// at the root; ``name(of:)`` is the text after the last slash (trailing slashes ignored).
/// Does not: resolve `..`, symbolic links or the working directory.
package enum PathSplit {
    /// The directory holding `path`: `"u"` for `"u//c.tkstore"`, `"."` for `"c.tkstore"`.
    package static func directory(of path: String) -> String {
        let bytes = trimmed(path)
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return "." }
        var end = slash
        while end > 0, bytes[end - 1] == UInt8(ascii: "/") { end -= 1 }
        return end == 0 ? "/" : String(decoding: bytes[0..<end], as: UTF8.self)
    }

    /// The last component of `path`: `"c.tkstore"` for `"u/c.tkstore"`, `"u"` for `"u/"`.
    package static func name(of path: String) -> String {
        let bytes = trimmed(path)
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return String(decoding: bytes, as: UTF8.self) }
        let rest = bytes[(slash + 1)...]
        return rest.isEmpty ? "/" : String(decoding: rest, as: UTF8.self)
    }

    /// `path`'s bytes without trailing slashes (a path of only slashes keeps one).
    private static func trimmed(_ path: String) -> [UInt8] {
        var bytes = Array(path.utf8)
        while bytes.count > 1, bytes.last == UInt8(ascii: "/") { bytes.removeLast() }
        return bytes
    }
}
