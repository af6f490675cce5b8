import Foundation

/// The peak resident memory of a child process, for the tests that bound it (issue 23: the
/// binaries against an endless body).
public enum PeakRSS {
    /// Runs `child` under a `python3` wrapper that waits for it and reports its peak RSS
    /// (`getrusage(RUSAGE_CHILDREN).ru_maxrss`: exact, taken by the kernel over the child's
    /// whole life, and not shared with the test process's other children). The child's
    /// stdin, stdout, stderr and exit status pass through unchanged (a signal becomes 128+N).
    /// Returns the outcome and the peak in bytes.
    public static func run(_ child: ChildProcess, timeout: Duration) async throws -> (outcome: ChildProcess.Outcome, peakBytes: Int) {
        let directory = try PrivateTemporaryDirectory(prefix: "tokenkit-peak-rss")
        let report = directory.file("report")
        defer { withExtendedLifetime(directory) {} }
        let script = """
            import resource, subprocess, sys
            code = subprocess.call(sys.argv[2:])
            open(sys.argv[1], "w").write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))
            sys.exit(code if code >= 0 else 128 - code)
            """
        var wrapped = child
        wrapped.path = "/usr/bin/python3"
        wrapped.arguments = ["-c", script, report, child.path] + child.arguments
        let outcome = try await wrapped.run(timeout: timeout)
        let text = try String(contentsOfFile: report, encoding: .utf8)
        guard let kibibytes = Int(text) else { throw DeadlineExceeded(what: "peak RSS report (got \(text))") }
        return (outcome, kibibytes * 1024)
    }

    /// The peak RSS so far of the running process `pid` (`VmHWM` in `/proc/PID/status`), in
    /// bytes; `nil` when it has exited.
    public static func sofar(of pid: pid_t) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kibibytes = Int(line.dropFirst("VmHWM:".count).trimmingCharacters(in: .whitespaces).dropLast(3).trimmingCharacters(in: .whitespaces))
        else { return nil }
        return kibibytes * 1024
    }
}
