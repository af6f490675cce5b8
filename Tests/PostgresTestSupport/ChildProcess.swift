#if canImport(Glibc)
import Glibc
#endif

/// Runs a helper program to completion with `posix_spawn` and a blocking `waitpid`.
///
/// Foundation's `Process.waitUntilExit()` polls a run loop for a `SIGCHLD` it can miss when
/// many tests spawn children at once (seen here: the child a zombie, the test spinning at
/// 86 % CPU for 20 minutes). `waitpid` on the child's own pid cannot miss its exit.
enum ChildProcess {
    struct Outcome {
        let status: Int32
        let output: String
    }

    /// Runs `path arguments…` with stdin from /dev/null and stderr inherited; stdout is
    /// captured when `captureOutput`, else discarded. Blocks the calling thread until it exits.
    static func run(_ path: String, _ arguments: [String], captureOutput: Bool) throws -> Outcome {
        var pipe: [Int32] = [-1, -1]
        if captureOutput { guard Glibc.pipe(&pipe) == 0 else { throw PostgresTestServer.Failed(what: "pipe for \(path)") } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if captureOutput {
            posix_spawn_file_actions_adddup2(&actions, pipe[1], 1)
            posix_spawn_file_actions_addclose(&actions, pipe[0])
            posix_spawn_file_actions_addclose(&actions, pipe[1])
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
        if captureOutput { close(pipe[1]) }
        guard spawned == 0 else {
            if captureOutput { close(pipe[0]) }
            throw PostgresTestServer.Failed(what: "spawning \(path) (errno \(spawned))")
        }
        var output: [UInt8] = []
        if captureOutput {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(pipe[0], $0.baseAddress, $0.count) }
                if count > 0 { output += buffer[0..<count] } else if count == 0 || errno != EINTR { break }
            }
            close(pipe[0])
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else { throw PostgresTestServer.Failed(what: "waiting for \(path)") }
        }
        // WIFEXITED / WEXITSTATUS: exited normally when the low 7 bits are 0.
        let exitStatus: Int32 = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return Outcome(status: exitStatus, output: String(decoding: output, as: UTF8.self))
    }
}
