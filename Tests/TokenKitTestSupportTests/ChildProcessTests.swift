import Foundation
import Testing
import TokenKitTestSupport

/// The test targets' one process runner: what it captures, what it feeds, and that a timeout
/// kills the child's whole process group.
@Suite("ChildProcess: the tests' process runner")
struct ChildProcessTests {
    @Test("stdout and stderr are captured apart, byte for byte, with the exit status")
    func capturesBothStreams() throws {
        let outcome = try ChildProcess("/bin/sh", ["-c", #"printf 'out\000put'; printf err >&2; exit 3"#]).runBlocking()
        #expect(outcome.status == 3)
        #expect(outcome.signal == nil)
        #expect(outcome.stdout == Array("out".utf8) + [0] + Array("put".utf8))
        #expect(outcome.stderrText == "err")
    }

    @Test("stdin bytes reach the child, and a megabyte each way does not deadlock")
    func feedsStdin() async throws {
        let input = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let outcome = try await ChildProcess("/bin/cat", stdin: .bytes(input)).run(timeout: .seconds(60))
        #expect(outcome.status == 0)
        #expect(outcome.stdout == input)
    }

    @Test("the environment is exactly the one given, and the working directory is set")
    func environmentAndDirectory() throws {
        let env = try ChildProcess("/usr/bin/env", environment: ["ONLY": "this"]).runBlocking()
        #expect(env.stdoutText == "ONLY=this\n")
        let directory = try ChildProcess("/bin/pwd", directory: "/").runBlocking()
        #expect(directory.stdoutText == "/\n")
    }

    @Test("a timeout kills the child's whole process group and throws TimedOut with the output so far")
    func timeoutKillsTheGroup() throws {
        let error = try #require(throws: ChildProcess.TimedOut.self) {
            try ChildProcess("/bin/sh", ["-c", "sleep 600 & echo $!; wait"]).runBlocking(timeout: .milliseconds(500))
        }
        #expect(error.description.contains("/bin/sh -c"))
        let grandchild = try #require(pid_t(String(decoding: error.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)))
        // Killed with its group; once its new parent has reaped it, the pid is gone.
        var gone = false
        for _ in 0..<200 where !gone {
            gone = kill(grandchild, 0) == -1 && errno == ESRCH
            if !gone { usleep(10_000) }
        }
        #expect(gone, "the background sleep (pid \(grandchild)) outlived the timeout")
    }

    @Test("a started child can be read while it runs, then killed; the signal is reported")
    func streamsAndSignals() async throws {
        let child = try ChildProcess("/bin/sh", ["-c", "echo ready; exec sleep 600"]).start()
        let text = try await child.waitForStdout(timeout: .seconds(60)) { $0.hasSuffix("ready\n") }
        #expect(text == "ready\n")
        child.signal(SIGKILL)
        let outcome = try await child.wait(timeout: .seconds(60))
        #expect(outcome.signal == SIGKILL)
        #expect(outcome.status == 128 + SIGKILL)
    }

    @Test("a missing executable is a SpawnFailed error naming it")
    func missingExecutable() throws {
        let error = try #require(throws: ChildProcess.SpawnFailed.self) {
            try ChildProcess("/nonexistent/tokenkit-no-such-binary").runBlocking()
        }
        #expect(error.description.contains("/nonexistent/tokenkit-no-such-binary"))
    }
}
