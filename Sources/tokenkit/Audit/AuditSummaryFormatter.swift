import TokenKit
import TokenKitAudit

/// The summary printed after the table: the summary line (counts by status), findings,
/// lifetime distribution, the soonest expiry and the longest-lived token — by reference and
/// position, never by content.
struct AuditSummaryFormatter {
    /// Whether the run fails on any finding (changes the wording of the last line only).
    let failOnEverything: Bool

    /// The summary's lines, each ending with `\n`.
    func text(_ summary: AuditSummary) -> String {
        var lines: [String] = []
        let statuses = AuditStatus.allCases.map { "\(HumanDuration.count(summary.statusCounts[$0] ?? 0)) \($0.rawValue)" }
        lines.append("\(HumanDuration.count(summary.total)) token\(summary.total == 1 ? "" : "s"): \(statuses.joined(separator: ", "))")
        let findings = AuditFinding.all.compactMap { finding in
            summary.findingCounts[finding].map { "\(finding.rawValue) \(HumanDuration.count($0))" }
        }
        lines.append("findings: \(findings.isEmpty ? "none" : findings.joined(separator: ", "))")
        if let lifetimes = summary.lifetimes {
            let about = lifetimes.isExact ? "" : "~"
            lines.append("lifetime (\(HumanDuration.count(lifetimes.count)) with iat and exp): min \(HumanDuration.string(lifetimes.min)), "
                + "median \(about)\(HumanDuration.string(lifetimes.median)), p95 \(about)\(HumanDuration.string(lifetimes.p95)), "
                + "max \(HumanDuration.string(lifetimes.max))")
        } else {
            lines.append("lifetime: no token has both iat and exp")
        }
        if let soonest = summary.soonestExpiry {
            lines.append("soonest expiry: \(describe(soonest)) in \(HumanDuration.string(soonest.seconds))"
                + (soonest.expiration.map { " (\(NumericDateFormatter.string($0)))" } ?? ""))
        } else {
            lines.append("soonest expiry: no unexpired token")
        }
        if let longest = summary.longestLived {
            lines.append("longest-lived: \(describe(longest)), lifetime \(HumanDuration.string(longest.seconds))")
        }
        if summary.failing > 0 {
            let what = failOnEverything ? "with findings" : "with failing findings"
            lines.append("result: \(HumanDuration.count(summary.failing)) token\(summary.failing == 1 ? "" : "s") \(what)")
        } else {
            lines.append("result: ok")
        }
        return lines.map { $0 + "\n" }.joined()
    }

    private func describe(_ token: NotableToken) -> String {
        let place = "\(DisplayText.sanitized(token.source, maxCharacters: 60)):\(token.line)"
        return token.reference.map { "\($0) (\(place))" } ?? place
    }
}
