import Foundation
import Testing
@testable import TokenKitTestSupport

/// The contract of the tests' one runner of built binaries, exercised on system programs (the
/// runner does not care what it runs): the time limit, the three environments, stdin, the
/// umask and wrapper options.
@Suite("TokenKitCLI: the runner of the built binaries")
struct TokenKitCLIContractTests {
    @Test("a child still running at the time limit is killed and TimedOut thrown")
    func timeLimitKills() async throws {
        let clock = ContinuousClock()
        let start = clock.now
        await #expect(throws: ChildProcess.TimedOut.self) {
            _ = try await TokenKitCLI(path: "/bin/sleep").run(["120"], environment: .exactly([:]), timeout: .seconds(1))
        }
        #expect(clock.now - start < .seconds(100))  // far below the sleep, loose for a loaded machine
    }

    @Test(".exactly gives the child those variables and nothing else")
    func exactEnvironment() async throws {
        let result = try await TokenKitCLI(path: "/usr/bin/env").run([], environment: .exactly(["ONLY": "this"]))
        #expect(result.status == 0)
        #expect(result.lines == ["ONLY=this"])
    }

    @Test(".isolated adds the standard PATH only when none is given")
    func isolatedEnvironment() async throws {
        let env = TokenKitCLI(path: "/usr/bin/env")
        let added = try await env.run([], environment: .isolated(["HOME": "/nowhere"]))
        #expect(added.lines.sorted() == ["HOME=/nowhere", "PATH=" + TokenKitCLI.Environment.standardPATH])
        let kept = try await env.run([], environment: .isolated(["PATH": "/opt/bin"]))
        #expect(kept.lines == ["PATH=/opt/bin"])
    }

    @Test(".inherited(adding:) keeps this process's variables and adds the given ones")
    func inheritedEnvironment() async throws {
        let result = try await TokenKitCLI(path: "/usr/bin/env").run([], environment: .inherited(adding: ["TOKENKIT_RUNNER_TEST": "added"]))
        #expect(result.lines.contains("TOKENKIT_RUNNER_TEST=added"))
        let path = try #require(ProcessInfo.processInfo.environment["PATH"])
        #expect(result.lines.contains("PATH=" + path))
    }

    @Test("stdin text reaches the child through the wrapper, and stdout comes back byte for byte")
    func stdinThroughWrapper() async throws {
        let result = try await TokenKitCLI(path: "/bin/cat").run(
            [], stdin: "line one\nline two\n", environment: .exactly([:]), wrapper: ["/usr/bin/env", "-i"])
        #expect(result.status == 0)
        #expect(result.stdout == Array("line one\nline two\n".utf8))
        #expect(result.lines == ["line one", "line two"])
    }

    @Test("the umask option applies to the child")
    func umask() async throws {
        let result = try await TokenKitCLI(path: "/bin/sh").run(["-c", "umask"], environment: .exactly([:]), umask: "0277")
        #expect(result.stdoutText == "0277\n")
    }
}

@Suite("PrivateTemporaryDirectory")
struct PrivateTemporaryDirectoryTests {
    @Test("mode 0700, files written 0600 unless told, everything removed on release")
    func lifecycle() throws {
        var directory: PrivateTemporaryDirectory? = try PrivateTemporaryDirectory(prefix: "tokenkit-support-test")
        let path = try #require(directory?.path)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == 0o700)
        let file = try #require(try directory?.write("secret", "s3cret"))
        #expect((try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int) == 0o600)
        let open = try #require(try directory?.write("open", bytes: [1, 2], mode: 0o644))
        #expect((try FileManager.default.attributesOfItem(atPath: open)[.posixPermissions] as? Int) == 0o644)
        #expect(FileManager.default.contents(atPath: file) == Data("s3cret".utf8))
        #expect(directory.map { "\($0)/secret" } == file, "interpolated, the directory is its path")
        directory = nil
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
