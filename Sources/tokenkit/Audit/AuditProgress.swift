import Foundation

/// The progress line on standard error for long audits: "audited 1,234,567 tokens
/// (612,000/s)", redrawn at most 5 times a second and only after the first second, so short
/// runs show nothing. Disabled (draws nothing at all) when standard error is not a terminal.
final class AuditProgress {
    private let enabled: Bool
    private let started = Date()
    private var lastDraw = Date.distantPast
    private var visible = false

    /// A progress line, drawn only when `enabled`.
    init(enabled: Bool) { self.enabled = enabled }

    /// Records that `count` tokens are done; redraws when due.
    func update(count: Int) {
        guard enabled else { return }
        let now = Date()
        let elapsed = now.timeIntervalSince(started)
        guard elapsed >= 1, now.timeIntervalSince(lastDraw) >= 0.2 else { return }
        lastDraw = now
        let rate = Int(Double(count) / elapsed)
        Terminal.writeToStandardError("\r\u{1B}[Kaudited \(HumanDuration.count(count)) tokens (\(HumanDuration.count(rate))/s)")
        visible = true
    }

    /// Erases the line if it is shown (before other output on the same terminal, and at the end).
    func clear() {
        guard visible else { return }
        Terminal.writeToStandardError("\r\u{1B}[K")
        visible = false
    }
}
