import Foundation
import TokenKit
import TokenKitTestSupport

/// Runs the built `tokenkit` binary (``BuiltBinary/path(named:)``).
enum CLI {
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
        var lines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }
    }

    /// The `tokenkit` to run: `TOKENKIT_CLI`/`TOKENKIT_BIN`, else the one built next to the tests.
    static func binary() throws -> String { try BuiltBinary.path(named: "tokenkit") }

    /// Runs `tokenkit` with `arguments`, feeding `stdin`, with `environment` added to this
    /// process's.
    static func run(_ arguments: [String], stdin: String = "", environment: [String: String] = [:]) async throws -> Result {
        let outcome = try await ChildProcess(
            try binary(), arguments, environment: ChildProcess.inheritedEnvironment(adding: environment), stdin: .bytes(Array(stdin.utf8))
        ).run()
        return Result(status: outcome.status, stdout: outcome.stdoutText, stderr: outcome.stderrText)
    }

    /// Writes `text` to a new temporary file with `mode` (0600 unless given: tokenkit refuses
    /// secret files other users may read) and returns its path.
    static func temporaryFile(_ text: String, name: String = "tokens.txt", mode: Int = 0o600) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tokenkit-audit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: url.path)
        return url.path
    }
}

/// Test tokens (unsigned unless noted).
enum Tokens {
    static let now = "1700000000"

    static func make(header: String = #"{"alg":"HS256","typ":"JWT"}"#, payload: String, signature: String = "c2ln") -> String {
        Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(payload.utf8)) + "." + signature
    }

    static func claims(_ members: String, alg: String = "HS256", kid: String? = nil) -> String {
        let kidPart = kid.map { #","kid":"\#($0)""# } ?? ""
        return make(header: #"{"alg":"\#(alg)"\#(kidPart)}"#, payload: "{\(members)}")
    }
}
