import Foundation

/// Temporary directories (mode 0700, removed by the caller) and the source tree.
enum TestEnvironment {
    /// A fresh private (0700) directory under the system temporary directory.
    static func makeTemporaryDirectory() throws -> String {
        let path = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("tokenkit-test-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return path
    }

    /// Removes a directory tree made by ``makeTemporaryDirectory()``.
    static func remove(_ directory: String) {
        try? FileManager.default.removeItem(atPath: directory)
    }
}
