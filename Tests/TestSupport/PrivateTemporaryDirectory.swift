import Foundation

/// A private temporary directory for one test: created with mode 0700 under the system's
/// temporary directory, removed with everything in it when the object is released.
///
/// Hold the object (not only paths into it) for as long as the test uses the files: the
/// directory goes when the last reference does. Removal is best effort (a failure is
/// ignored), and nothing stops a test from loosening the directory's mode itself.
public final class PrivateTemporaryDirectory: Sendable, CustomStringConvertible {
    /// The directory's absolute path.
    public let path: String

    /// Creates `<temporary directory>/<prefix>-<UUID>` with mode 0700.
    public init(prefix: String = "tokenkit-test") throws {
        let path = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("\(prefix)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        self.path = path
    }

    /// The path, so that `"\(directory)/name"` names a file in it.
    public var description: String { path }

    /// The path of `name` in the directory (nothing is created).
    public func file(_ name: String) -> String { path + "/" + name }

    /// Writes `text` as UTF-8 to the file `name` with `mode` (0600 unless given: tokenkit
    /// refuses key and secret files other users may read, whatever the umask made them) and
    /// returns its path; an existing file is replaced.
    @discardableResult
    public func write(_ name: String, _ text: String, mode: Int = 0o600) throws -> String {
        try write(name, bytes: Array(text.utf8), mode: mode)
    }

    /// Writes `bytes` to the file `name` with `mode` (0600 unless given) and returns its path;
    /// an existing file is replaced.
    @discardableResult
    public func write(_ name: String, bytes: [UInt8], mode: Int = 0o600) throws -> String {
        let file = file(name)
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: file)
        return file
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
