import Foundation

/// The package's source tree (where `scripts/` and `Tests/` live), found from this file's
/// path (Tests/TestSupport/SourceTree.swift), for tests that run the repository's scripts or
/// read its files.
public enum SourceTree {
    /// The package's root directory.
    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The path of `relative` (e.g. `scripts/with-secret-service`) under the root.
    public static func path(_ relative: String) -> String {
        root.appendingPathComponent(relative).path
    }
}
