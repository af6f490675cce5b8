import Foundation

/// Finds the package's built executables (next to the test bundle, in `.build/<config>`).
enum Binaries {
    struct Missing: Error, CustomStringConvertible {
        let what: String
        var description: String { "cannot find \(what)" }
    }

    /// The path of the built executable `name`.
    static func path(_ name: String) throws -> String {
        let start = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        var directory = start.deletingLastPathComponent()
        for _ in 0..<6 {
            let candidate = directory.appendingPathComponent(name).path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        throw Missing(what: "the \(name) binary next to the test executable")
    }

    /// The repository's scripts/with-secret-service.
    static var withSecretService: String {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/with-secret-service").path
    }
}
