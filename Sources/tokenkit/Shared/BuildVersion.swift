import CReleaseLink

/// What `tokenkit --version` prints: the release and the commit the binary was built from.
///
/// The commit is linked in by scripts/install and scripts/package-deb (see
/// `Sources/CReleaseLink/shim.h`); any other build prints `commit unknown` rather than guess.
enum BuildVersion {
    /// The release this source tree is (CHANGELOG.md's next version).
    static let release = "0.1.0"

    /// The commit linked into this binary, if the build linked one: 7 to 40 lowercase hex
    /// digits, optionally followed by `-dirty`. Anything else reads as no commit.
    static var commit: String? {
        guard let pointer = tokenkit_release_commit() else { return nil }
        let text = String(cString: pointer)
        let hex = text.hasSuffix("-dirty") ? text.dropLast("-dirty".count) : Substring(text)
        guard (7...40).contains(hex.utf8.count),
              hex.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) })
        else { return nil }
        return text
    }

    /// `0.1.0 (commit 0123456789ab…)`, or `0.1.0 (commit unknown)`.
    static var line: String { "\(release) (commit \(commit ?? "unknown"))" }
}
