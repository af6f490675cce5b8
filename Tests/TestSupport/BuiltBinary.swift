import Foundation

/// Finds the executables `swift build --build-tests` puts next to the test bundle
/// (`tokenkit`, `tokenkit-store-stress`, …): one search for every test target that runs one.
public enum BuiltBinary {
    /// Thrown when the executable is not found (the description says where it looked).
    public struct Missing: Error, CustomStringConvertible {
        /// What was looked for, and where.
        public let description: String
    }

    /// The path of the built executable `name`.
    ///
    /// For `tokenkit`, `TOKENKIT_CLI` (or the older `TOKENKIT_BIN`) names the binary to run
    /// instead when set (scripts/test runs the hostile-input suites again against the release
    /// build that way); it must be an executable file. Otherwise the directories of the test
    /// executable and bundle are searched, walking up a few levels (the test bundle may be a
    /// directory).
    public static func path(named name: String) throws -> String {
        if name == "tokenkit" {
            let environment = ProcessInfo.processInfo.environment
            if let chosen = [environment["TOKENKIT_CLI"], environment["TOKENKIT_BIN"]].compactMap({ $0 }).first(where: { !$0.isEmpty }) {
                guard FileManager.default.isExecutableFile(atPath: chosen) else {
                    throw Missing(description: "TOKENKIT_CLI=\(chosen) is not an executable file")
                }
                return chosen
            }
        }
        var starts: [URL] = [URL(fileURLWithPath: CommandLine.arguments.first ?? "").deletingLastPathComponent()]
        if let main = Bundle.main.executableURL { starts.append(main.deletingLastPathComponent()) }
        starts.append(Bundle.main.bundleURL.deletingLastPathComponent())
        for start in starts {
            var directory = start
            for _ in 0..<6 {
                let candidate = directory.appendingPathComponent(name).path
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
                directory = directory.deletingLastPathComponent()
            }
        }
        throw Missing(description: "cannot find \(name) next to the test executable (looked from \(starts.map(\.path)))")
    }
}
