import Foundation
import TokenKitTestSupport

extension TokenKitCLI.Environment {
    /// The environment a reference client runs with: exactly `variables`, plus `PATH`
    /// `/usr/local/bin:/usr/bin:/bin` and `HOME` = the system's temporary directory when they
    /// set none (nothing else of the test's environment reaches the client).
    static func client(_ variables: [String: String] = [:]) -> Self {
        var variables = variables
        variables["PATH"] = variables["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        variables["HOME"] = variables["HOME"] ?? NSTemporaryDirectory()
        return .exactly(variables)
    }
}

extension CLIResult {
    /// The exit status, stdout and stderr, for failure messages.
    var summary: String { "exit \(status)\nstdout: \(stdoutText)\nstderr: \(stderr)" }
}
