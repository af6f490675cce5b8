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
    /// An environment variable may name the binary to run instead (scripts/test runs suites
    /// again against release builds that way): ``overrideVariables(for:)`` lists them; the
    /// first one set must name an executable file. Otherwise the directories of the test
    /// executable and bundle are searched, walking up a few levels (the test bundle may be a
    /// directory).
    public static func path(named name: String) throws -> String {
        let environment = ProcessInfo.processInfo.environment
        for variable in overrideVariables(for: name) {
            guard let chosen = environment[variable], !chosen.isEmpty else { continue }
            guard FileManager.default.isExecutableFile(atPath: chosen) else {
                throw Missing(description: "\(variable)=\(chosen) is not an executable file")
            }
            return chosen
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

    /// The environment variables that may name another build of `name`, in order:
    /// `TOKENKIT_CLI` (or the older `TOKENKIT_BIN`) for `tokenkit`; for every other executable,
    /// `TOKENKIT_BIN_` and its name in capitals with `-` as `_` (`TOKENKIT_BIN_RESOURCE_SERVER`).
    public static func overrideVariables(for name: String) -> [String] {
        if name == "tokenkit" { return ["TOKENKIT_CLI", "TOKENKIT_BIN"] }
        return ["TOKENKIT_BIN_" + name.uppercased().replacingOccurrences(of: "-", with: "_")]
    }
}
