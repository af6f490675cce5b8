import Foundation
import TokenKitTime
#if canImport(Glibc)
import Glibc
#endif

extension ChildProcess {
    /// A started child: its output is read as it comes (on threads of its own), its exit is
    /// awaited with `waitpid` on its pid, and ``wait(timeout:)`` collects both.
    public final class Running: @unchecked Sendable {
        // @unchecked Sendable: the mutable state below is only touched with `condition` held.
        /// The child's process id (also its process group's id).
        public let pid: pid_t
        private let command: String
        private let started = ContinuousClock.now
        private let condition = NSCondition()
        private var output: [UInt8] = []
        private var errors: [UInt8] = []
        private var outputOpen: Bool
        private var errorsOpen: Bool
        private var waitStatus: Int32?
        private var elapsed: Duration = .zero

        /// The SIGPIPE disposition: ignored in the test process, so that writing stdin to a
        /// child that exited early fails with EPIPE instead of killing the tests (children
        /// get the default back).
        private static let ignoreSIGPIPE: Void = { _ = Glibc.signal(SIGPIPE, SIG_IGN) }()

        init(spawning child: ChildProcess) throws {
            _ = Self.ignoreSIGPIPE
            command = ([child.path] + child.arguments.prefix(1)).joined(separator: " ")
            let input = child.stdin.isPipe ? try Self.pipe(for: child.path) : nil
            let out = child.stdout == .capture ? try Self.pipe(for: child.path) : nil
            let err = child.stderr == .capture ? try Self.pipe(for: child.path) : nil
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            switch child.stdin {
            case .null: posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            case .inherit: break
            case .bytes: if let input { posix_spawn_file_actions_adddup2(&actions, input.read, 0) }
            }
            for (fd, mode, pipe) in [(Int32(1), child.stdout, out), (Int32(2), child.stderr, err)] {
                switch mode {
                case .capture: if let pipe { posix_spawn_file_actions_adddup2(&actions, pipe.write, fd) }
                case .discard: posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", O_WRONLY, 0)
                case .inherit: break
                }
            }
            // Nothing else this process has open reaches the child (a descriptor another test
            // opened without close-on-exec would otherwise be held open by it).
            if let closeFrom = Self.closeFrom {
                _ = closeFrom(&actions, 3)
            } else {
                for fd in Self.openDescriptors() where fd > 2 { posix_spawn_file_actions_addclose(&actions, fd) }
            }
            if let directory = child.directory {
                guard let addChdir = Self.addChdir else {
                    for fd in [input?.read, input?.write, out?.read, out?.write, err?.read, err?.write].compactMap({ $0 }) { close(fd) }
                    throw SpawnFailed(path: child.path, reason: "posix_spawn_file_actions_addchdir_np is missing (glibc < 2.29)")
                }
                _ = addChdir(&actions, directory)
            }
            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            var noSignals = sigset_t(), everySignal = sigset_t()
            sigemptyset(&noSignals)
            sigfillset(&everySignal)
            sigdelset(&everySignal, SIGKILL)
            sigdelset(&everySignal, SIGSTOP)
            posix_spawnattr_setsigmask(&attributes, &noSignals)
            posix_spawnattr_setsigdefault(&attributes, &everySignal)
            posix_spawnattr_setpgroup(&attributes, 0)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

            let argv: [UnsafeMutablePointer<CChar>?] = ([child.path] + child.arguments).map { strdup($0) } + [nil]
            let envp: [UnsafeMutablePointer<CChar>?]? = child.environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
            defer { (argv + (envp ?? [])).forEach { free($0) } }
            var pid = pid_t()
            let rc = envp.map { posix_spawn(&pid, child.path, &actions, &attributes, argv, $0) }
                ?? posix_spawn(&pid, child.path, &actions, &attributes, argv, environ)
            // The child's ends (and, on failure, ours too) are closed here.
            for fd in [input?.read, out?.write, err?.write].compactMap({ $0 }) { close(fd) }
            guard rc == 0 else {
                for fd in [input?.write, out?.read, err?.read].compactMap({ $0 }) { close(fd) }
                throw SpawnFailed(path: child.path, reason: "posix_spawn failed (errno \(rc))")
            }
            self.pid = pid
            outputOpen = out != nil
            errorsOpen = err != nil

            if let input, case .bytes(let bytes) = child.stdin {
                Thread { Self.writeAllAndClose(input.write, bytes) }.start()
            }
            if let out { Thread { self.drain(out.read, isStdout: true) }.start() }
            if let err { Thread { self.drain(err.read, isStdout: false) }.start() }
            Thread { self.reap() }.start()
        }

        /// Sends `signal` to the child (not its group), unless it has already been reaped.
        public func signal(_ signal: Int32) {
            condition.withLock { if waitStatus == nil { _ = kill(pid, signal) } }
        }

        /// Blocks until stdout's text so far satisfies `done`, stdout ends, or `timeout`
        /// passes; returns the text so far (stdout must be captured).
        public func waitForStdout(timeout: Duration? = nil, until done: (String) -> Bool) -> String {
            let deadline = timeout.map { Date().addingTimeInterval($0.seconds) }
            return condition.withLock {
                while true {
                    let text = String(decoding: output, as: UTF8.self)
                    if done(text) || !outputOpen { return text }
                    if let deadline {
                        if !condition.wait(until: deadline) { return String(decoding: output, as: UTF8.self) }
                    } else {
                        condition.wait()
                    }
                }
            }
        }

        /// ``waitForStdout(timeout:until:)`` on a thread of its own.
        public func waitForStdout(timeout: Duration? = nil, until done: @escaping @Sendable (String) -> Bool) async throws -> String {
            try await offPool { self.waitForStdout(timeout: timeout, until: done) }
        }

        /// Blocks until the child has exited and its captured output has ended. With
        /// `timeout`, after that long kills the child's process group (SIGKILL) and throws
        /// ``TimedOut`` with the output so far.
        public func wait(timeout: Duration? = nil) throws -> Outcome {
            let deadline = timeout.map { Date().addingTimeInterval($0.seconds) }
            condition.lock()
            defer { condition.unlock() }
            while waitStatus == nil || outputOpen || errorsOpen {
                if let deadline {
                    if !condition.wait(until: deadline) { break }
                } else {
                    condition.wait()
                }
            }
            guard let status = waitStatus, !outputOpen, !errorsOpen else {
                // Only a deadline ends the loop early. Kill the whole group (the child may have
                // exited, leaving a descendant that holds a pipe), then wait for the reaper.
                _ = kill(-pid, SIGKILL)
                while waitStatus == nil { condition.wait() }
                // A descendant that left the group may still hold a pipe: give the readers a
                // moment, then report what arrived.
                _ = condition.wait(until: Date().addingTimeInterval(2))
                throw TimedOut(command: command, after: timeout ?? .zero, stdout: output, stderr: errors)
            }
            // WIFEXITED / WEXITSTATUS / WTERMSIG: exited normally when the low 7 bits are 0.
            let signal: Int32? = (status & 0x7F) == 0 ? nil : status & 0x7F
            return Outcome(
                status: signal.map { 128 + $0 } ?? (status >> 8) & 0xFF, signal: signal,
                stdout: output, stderr: errors, elapsed: elapsed)
        }

        /// ``wait(timeout:)`` on a thread of its own.
        public func wait(timeout: Duration? = nil) async throws -> Outcome {
            try await offPool { try self.wait(timeout: timeout) }
        }

        private func drain(_ fd: Int32, isStdout: Bool) {
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                condition.withLock {
                    if count > 0 {
                        if isStdout { output += buffer[0..<count] } else { errors += buffer[0..<count] }
                    } else if isStdout {
                        outputOpen = false
                    } else {
                        errorsOpen = false
                    }
                    condition.broadcast()
                }
                if count <= 0 { break }
            }
            close(fd)
        }

        private func reap() {
            var status: Int32 = 0
            var result = waitpid(pid, &status, 0)
            while result < 0 && errno == EINTR { result = waitpid(pid, &status, 0) }
            condition.withLock {
                // ECHILD (reaped elsewhere) is reported as a failed exit, never as success.
                waitStatus = result == pid ? status : 0xFF << 8
                elapsed = ContinuousClock.now - started
                condition.broadcast()
            }
        }

        private static func writeAllAndClose(_ fd: Int32, _ bytes: [UInt8]) {
            var offset = 0
            while offset < bytes.count {
                let count = bytes.withUnsafeBytes { write(fd, $0.baseAddress.map { $0 + offset }, $0.count - offset) }
                if count > 0 {
                    offset += count
                } else if !(count < 0 && errno == EINTR) {
                    break  // the child closed its end: it has read all it wanted
                }
            }
            close(fd)
        }

        /// A pipe whose both ends are close-on-exec (the spawn's dup2 clears it on the
        /// child's copy), so that no other child inherits it.
        private static func pipe(for path: String) throws -> (read: Int32, write: Int32) {
            var fds: [Int32] = [-1, -1]
            guard Glibc.pipe(&fds) == 0 else { throw SpawnFailed(path: path, reason: "pipe failed (errno \(errno))") }
            for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            return (fds[0], fds[1])
        }

        private typealias AddChdir = @convention(c) (
            UnsafeMutablePointer<posix_spawn_file_actions_t>?, UnsafePointer<CChar>?
        ) -> Int32

        /// glibc's `posix_spawn_file_actions_addchdir_np` (2.29+; not in Swift's Glibc module).
        private static let addChdir: AddChdir? = dlsym(nil, "posix_spawn_file_actions_addchdir_np")
            .map { unsafeBitCast($0, to: AddChdir.self) }

        private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32

        /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34+; not in Swift's Glibc module).
        private static let closeFrom: CloseFrom? = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np")
            .map { unsafeBitCast($0, to: CloseFrom.self) }

        /// The descriptors open in this process now (glibc older than 2.34 only; closing one
        /// that was closed meanwhile is not an error for posix_spawn).
        private static func openDescriptors() -> [Int32] {
            ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).compactMap { Int32($0) }
        }
    }
}

extension ChildProcess.Input {
    var isPipe: Bool { if case .bytes = self { true } else { false } }
}
