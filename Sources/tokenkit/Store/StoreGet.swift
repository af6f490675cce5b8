import ArgumentParser
import Foundation
import TokenKit
import TokenKitStore

extension StoreCommand {
    /// `tokenkit store get`: metadata by default, the secret itself only with `--reveal`.
    struct Get: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "get",
            abstract: "Show a stored credential's metadata; with --reveal, print the secret itself on stdout.",
            discussion: "A missing entry exits with status 1.")

        @OptionGroup var key: CredentialKeyOptions
        @Flag(help: "Print exactly the stored secret on stdout (a token set as its JSON), and nothing else.")
        var reveal = false
        @OptionGroup var backend: BackendOptions

        func run() async throws {
            try await reportingAllFailures {
                let key = try key.key()
                let opened = try await backend.openStore(key: key)
                guard let credential = try await opened.store.load(key) else {
                    throw CLIFailure.notFound("no credential stored for service \"\(key.service)\" account \"\(key.account)\" (\(opened.store.backendName) backend)")
                }
                if reveal {
                    FileHandle.standardOutput.write(Data(credential.secret))
                    return
                }
                // Every field shown is cleaned (StoreFormat.shown): names, kind and scope come
                // from arguments, the store or the token endpoint.
                var lines = [
                    "service: \(StoreFormat.shown(key.service))",
                    "account: \(StoreFormat.shown(key.account))",
                    "backend: \(StoreFormat.shown(opened.reason))",
                    "kind: \(StoreFormat.shown(credential.kind.rawValue))",
                    "size: \(credential.secret.count)",
                ]
                if let created = credential.createdAt { lines.append("created: \(StoreFormat.timestamp(created))") }
                if let updated = credential.updatedAt { lines.append("updated: \(StoreFormat.timestamp(updated))") }
                if credential.kind == .tokenSet {
                    let tokens = try credential.tokenSet()
                    lines.append("expires: \(tokens.expiresAt.map(StoreFormat.timestamp) ?? "unknown")")
                    lines.append("refresh token: \(tokens.refreshToken == nil ? "no" : "yes")")
                    if let scope = tokens.scope { lines.append("scope: \(StoreFormat.shown(scope))") }
                }
                StandardStreams.printOutput(lines.joined(separator: "\n"))
            }
        }
    }
}

/// Output helpers shared by the store commands.
enum StoreFormat {
    /// A stored or echoed field as shown on stdout: TokenKit's one cleaner (``UntrustedText``)
    /// replaces controls, line and paragraph separators, bidirectional and invisible format
    /// characters with `?`, and cuts the field to 500 characters.
    static func shown(_ field: String) -> String {
        UntrustedText.sanitized(field, maxCharacters: 500)
    }

    /// RFC 3339 / ISO 8601 in UTC, seconds precision.
    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }
}
