import Testing

/// Checks the CLI's error contract on `result`: exit `status`, nothing on stdout, and exactly
/// one line on stderr, newline-terminated, starting `error: ` and containing `fragment`.
/// Records failures at `sourceLocation`; it does not stop the test.
public func expectOneErrorLine(
    _ result: CLIResult, status: Int32, containing fragment: String, sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(result.status == status, "exit \(result.status), stderr: \(result.stderr)", sourceLocation: sourceLocation)
    #expect(result.stdout.isEmpty, "stdout: \(result.stdoutText)", sourceLocation: sourceLocation)
    let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count == 2 && lines[1].isEmpty && lines[0].hasPrefix("error: "), "stderr: \(result.stderr)", sourceLocation: sourceLocation)
    #expect(result.stderr.contains(fragment), "stderr: \(result.stderr)", sourceLocation: sourceLocation)
}
