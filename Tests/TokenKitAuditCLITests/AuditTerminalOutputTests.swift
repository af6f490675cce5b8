import Foundation
import Testing
import TokenKitTestSupport

/// `tokenkit audit` on a terminal: status colours (unless `NO_COLOR`), none on a pipe, and the
/// progress line on long runs. A real pseudo-terminal comes from util-linux `script(1)`.
@Suite("tokenkit audit on a terminal")
struct AuditTerminalOutputTests {
    /// A file with one expired and one valid token (at `--now 1700000000`), in a private
    /// directory the caller holds while it uses the file.
    func tokenFile() throws -> (directory: PrivateTemporaryDirectory, path: String) {
        let directory = try PrivateTemporaryDirectory(prefix: "tokenkit-audit-tty")
        let expired = Tokens.claims(#""sub":"a","iat":1690000000,"exp":1690003600"#)
        let valid = Tokens.claims(#""sub":"b","iat":1699999000,"exp":1700003600"#)
        return (directory, try directory.write("tokens.txt", expired + "\n" + valid + "\n"))
    }

    /// Runs `command` (a shell command line, `$TOKENKIT` and `$FILE` set) on a pseudo-terminal;
    /// returns everything the terminal received.
    func onTerminal(_ command: String, file: String, environment: [String: String] = [:]) async throws -> String {
        let env = ["PATH": "/usr/bin:/bin", "TOKENKIT": try TokenKitCLI().path, "FILE": file, "TERM": "xterm"].merging(environment) { _, new in new }
        return try await ChildProcess("/usr/bin/script", ["-q", "-e", "-c", command, "/dev/null"], environment: env, stderr: .discard)
            .run().stdoutText
    }

    @Test("statuses are coloured on a terminal: expired red, ok green, reset after each")
    func colourOnTerminal() async throws {
        let (directory, file) = try tokenFile()
        defer { withExtendedLifetime(directory) {} }
        let screen = try await onTerminal(#""$TOKENKIT" audit --now 1700000000 --no-fail-on "$FILE""#, file: file)
        #expect(screen.contains("\u{1B}[31m"), "\(screen.debugDescription)")
        #expect(screen.contains("\u{1B}[32m"))
        #expect(screen.contains("\u{1B}[0m"))
    }

    @Test("NO_COLOR on a terminal, and any pipe, get no escape sequence at all")
    func noColour() async throws {
        let (directory, file) = try tokenFile()
        defer { withExtendedLifetime(directory) {} }
        let screen = try await onTerminal(#""$TOKENKIT" audit --now 1700000000 --no-fail-on "$FILE""#, file: file, environment: ["NO_COLOR": "1"])
        #expect(screen.contains("expired"), "\(screen.debugDescription)")
        #expect(!screen.contains("\u{1B}["))
        let piped = try await TokenKitCLI().run(["audit", "--now", "1700000000", "--no-fail-on", file], environment: .inherited)
        #expect(piped.stdoutText.contains("expired"))
        #expect(!piped.stdoutText.contains("\u{1B}") && !piped.stderr.contains("\u{1B}"))
    }

    @Test("a run longer than a second shows the progress line on the terminal's stderr, then erases it")
    func progressLine() async throws {
        let (directory, file) = try tokenFile()
        defer { withExtendedLifetime(directory) {} }
        // Tokens keep coming more than a second after tokenkit started reading (progress is
        // drawn only from then on). The first part is larger than a pipe's 64 KiB buffer, so
        // `cat` returns only once tokenkit is reading: the pause is measured from then, not
        // from the pipeline's start, however long a loaded machine takes to start tokenkit.
        let lines = try String(contentsOfFile: file, encoding: .utf8)
        let large = file + ".large"
        let largeBytes = Data(String(repeating: lines, count: 4000).utf8)
        #expect(largeBytes.count > 4 * 65536)
        try largeBytes.write(to: URL(fileURLWithPath: large))
        let command = #"(cat "$FILE.large"; sleep 1.5; cat "$FILE"; sleep 0.5; cat "$FILE") | "$TOKENKIT" audit --now 1700000000 --no-fail-on"#
        let screen = try await onTerminal(command, file: file)
        #expect(screen.contains("\r\u{1B}[Kaudited "), "\(screen.debugDescription)")
        #expect(screen.contains(" tokens ("))
        // Nothing is drawn when stderr is not a terminal.
        let quiet = try await onTerminal(command + " 2>/dev/null", file: file)
        #expect(!quiet.contains("audited "), "\(quiet.debugDescription)")
    }
}
