import ArgumentParser
import Foundation
import TokenKit
import TokenKitAudit
import TokenKitStore

/// `tokenkit audit`: reports the status and findings of many tokens, one a line, streamed.
///
/// Exit codes (the contract): 0 no failing finding; 1 some token has a failing finding
/// (by default any finding); 2 an input or key file cannot be read; 64 usage error.
/// Never prints a token or a secret: rows name tokens by line and reference.
struct AuditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Audit many JWTs (one a line): expired, never expiring, too long-lived, malformed.",
        discussion: """
            Reads FILEs (or stdin for '-' or no FILE), one token a line; blank lines and lines \
            starting with # are skipped. Statuses: ok, expired, not-yet-valid, no-expiry, malformed \
            (precedence in that reverse order). Findings: alg-none, no-exp, no-iat, \
            lifetime-exceeds-max, expired, not-yet-valid, iat-in-future, malformed, and with the \
            matching options expires-soon, missing-claim, alg-not-allowed, bad-signature. \
            Exit 0 when no token has a failing finding (by default: any finding), 1 otherwise, \
            2 when an input or key file cannot be read, 64 on usage errors.
            """)

    @Argument(help: ArgumentHelp("Files with one token a line ('-' or none: stdin).", valueName: "file"))
    var files: [String] = []

    @Flag(help: "One JSON object a line (same as --format json).")
    var json = false

    @Option(help: "Output format: table (default), json or csv.")
    var format: AuditOutputFormat?

    @Option(help: ArgumentHelp("The current time as UNIX seconds (default: the system clock, whole seconds).", valueName: "unix"))
    var now: Double?

    @Option(name: .customLong("max-lifetime"), help: ArgumentHelp("Flag tokens whose exp - iat exceeds this (90s, 15m, 1h, 7d, or seconds).", valueName: "duration"))
    var maxLifetime: DurationArgument?

    @Option(name: .customLong("warn-within"), help: ArgumentHelp("Flag tokens expiring within this duration (finding expires-soon).", valueName: "duration"))
    var warnWithin: DurationArgument?

    @Option(name: .customLong("require-claim"), help: ArgumentHelp("A claim every token must have (repeatable; finding missing-claim).", valueName: "claim"))
    var requiredClaims: [String] = []

    @Option(name: .customLong("allowed-alg"), help: ArgumentHelp("An allowed alg (repeatable or comma-separated; finding alg-not-allowed).", valueName: "alg"))
    var allowedAlgorithms: [String] = []

    @Option(name: .customLong("fail-on"), help: ArgumentHelp("Findings that fail the run (comma-separated or repeatable; default: every finding).", valueName: "finding,..."))
    var failOn: [String] = []

    @Flag(name: .customLong("no-fail-on"), help: "No finding fails the run (exit 0 unless an error occurs).")
    var noFailOn = false

    @Option(help: ArgumentHelp("Check signatures with this key file (PEM or JWK/JWKS JSON); failures are the finding bad-signature.", valueName: "path"))
    var key: String?

    @Option(help: ArgumentHelp("Check HMAC signatures with the raw bytes of this file as the secret (mode 0600).", valueName: "path"))
    var secret: String?

    @Option(help: ArgumentHelp("Check signatures with this JWKS file (or an https URL).", valueName: "path-or-url"))
    var jwks: String?

    @Flag(help: "Also audit the JWTs held in the credential store (token sets' access and ID tokens, JWT-shaped secrets) of each --service; the store is chosen with --backend, --file and --passphrase-file. Never prints them.")
    var store = false

    @Option(name: .customLong("service"), help: ArgumentHelp("With --store: a service whose accounts to audit (repeatable).", valueName: "service"))
    var services: [String] = []

    @OptionGroup(title: "Credential store (with --store)")
    var backend: BackendOptions

    func validate() throws {
        if let now, !now.isFinite || abs(now) >= 1e15 { throw ValidationError("--now must be UNIX seconds") }
        if json, let format, format != .json { throw ValidationError("--json cannot be combined with --format \(format.rawValue)") }
        if noFailOn, !failOn.isEmpty { throw ValidationError("--fail-on and --no-fail-on cannot be combined") }
        _ = try Self.findings(failOn)
        if [key, secret, jwks].compactMap({ $0 }).count > 1 {
            throw ValidationError("--key, --secret and --jwks cannot be combined")
        }
        if requiredClaims.contains(where: \.isEmpty) { throw ValidationError("--require-claim needs a claim name") }
        if store, services.isEmpty { throw ValidationError("--store needs at least one --service") }
        if !store, !services.isEmpty { throw ValidationError("--service is only used with --store") }
        if services.contains(where: \.isEmpty) { throw ValidationError("--service must not be empty") }
    }

    func run() async throws {
        try await reportingFailures {
            let outputFormat: AuditOutputFormat = json ? .json : (format ?? .table)
            let policy = AuditPolicy(
                now: Date(timeIntervalSince1970: now ?? Date().timeIntervalSince1970.rounded(.down)),
                maxLifetime: maxLifetime.map { .seconds($0.seconds) },
                warnWithin: warnWithin.map { .seconds($0.seconds) },
                requiredClaims: requiredClaims,
                allowedAlgorithms: allowedAlgorithms.isEmpty ? nil : IdentifierSet(Self.commaSeparated(allowedAlgorithms)),
                failOn: noFailOn ? AuditFindings() : (failOn.isEmpty ? AuditFindings(AuditFinding.all) : try Self.findings(failOn)),
                computeReferences: outputFormat != .json)
            let checker = try await signatureChecker()
            var session = AuditSession(
                sources: files.isEmpty && !store ? ["-"] : files,
                format: outputFormat,
                runner: AuditRunner(engine: AuditEngine(auditor: TokenAuditor(policy: policy, signatureChecker: checker))),
                failOnEverything: !noFailOn && failOn.isEmpty)
            if store { session.storeBatches = try await storeBatches() }
            let finished = session
            if try await DedicatedThread.run(named: "tokenkit-audit", { try finished.run() }).failed {
                throw ExitCode(ExitStatus.rejected)
            }
        }
    }

    /// The signature checker for --key, --secret or --jwks, if one was given.
    private func signatureChecker() async throws -> AuditSignatureChecker? {
        if let secret { return AuditSignatureChecker(keys: JWKSet(keys: [try KeyLoading.secret(fromFile: secret)])) }
        if let key { return AuditSignatureChecker(keys: try KeyLoading.keys(fromFile: key, purpose: .verify)) }
        if let jwks { return AuditSignatureChecker(keys: try await KeyLoading.jwks(from: jwks)) }
        return nil
    }

    /// The tokens held in the store for `--service`s, as batches (errors keep the store
    /// commands' exit codes: 2 storage, 64 usage).
    private func storeBatches() async throws -> [AuditBatch] {
        do {
            let opened = try await backend.openStore(services: services)
            return try await StoreTokenCollector.batches(store: opened.store, services: services)
        } catch let error as TokenStoreError {
            throw CLIFailure(error)
        }
    }

    /// Values of a repeatable, comma-separated option, trimmed, empty ones dropped.
    static func commaSeparated(_ values: [String]) -> [String] {
        values.flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
    }

    /// The findings named in `values`; a usage error names an unknown one.
    static func findings(_ values: [String]) throws -> AuditFindings {
        var set = AuditFindings()
        for name in commaSeparated(values) {
            guard let finding = AuditFinding(rawValue: name) else {
                throw ValidationError("unknown finding '\(name)' (known: \(AuditFinding.all.map(\.rawValue).joined(separator: ", ")))")
            }
            set.insert(finding)
        }
        return set
    }
}
