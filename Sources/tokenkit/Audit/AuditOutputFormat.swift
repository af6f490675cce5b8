import ArgumentParser

/// `--format`: how `tokenkit audit` writes its records.
enum AuditOutputFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// An aligned table and a summary (the default).
    case table
    /// One JSON object a line, exactly the contract's keys (same as `--json`).
    case json
    /// CSV with a header row, no summary.
    case csv
}
