import ArgumentParser
import Foundation
import TokenKitStore

extension StoreCommand {
    /// `tokenkit store put`: stores the secret read from stdin; a token set (`--token-set`) is
    /// recorded as a login's, like `tokenkit login` records it.
    struct Put: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "put",
            abstract: "Store a secret read from stdin (raw bytes, or a token-set JSON with --token-set).",
            discussion: """
                The secret is read from standard input until end of file, never from arguments. \
                A token set is JSON: {"access_token":…, "refresh_token":…, "id_token":…, \
                "token_type":"Bearer", "expires_at":UNIX_SECONDS, "scope":…, "metadata":{…}}.
                """)

        @OptionGroup var key: CredentialKeyOptions
        @Flag(help: "Parse stdin as a token-set JSON object and store it as a token set.")
        var tokenSet = false
        @OptionGroup var backend: BackendOptions

        /// Secrets larger than this are refused.
        static let maximumSize = 16 << 20

        func run() async throws {
            try await reportingAllFailures {
                let key = try key.key()
                var input = try Self.readStandardInput()
                defer { for i in input.indices { input[i] = 0 } }
                guard !input.isEmpty else { throw CLIFailure.usage("nothing on stdin: pipe the secret into `tokenkit store put`") }
                let credential: Credential
                if tokenSet {
                    credential = Credential(tokenSet: try TokenSet(jsonBytes: input))
                } else {
                    credential = Credential(secret: input)
                }
                let opened = try await backend.openStore(key: key)
                try await opened.store.save(credential, for: key)
                // A token set is a login (as `tokenkit login` stores it): record where it is, so
                // `token`, `logout` and `store get` look in this backend. Raw secrets are not.
                if tokenSet { LoginRecording.record(opened.record, for: key, environment: ProcessInfo.processInfo.environment) }
                StandardStreams.printOutput("stored \(credential.kind) (\(credential.secret.count) bytes) for \(StoreFormat.shown(key.service)) / \(StoreFormat.shown(key.account)) in \(opened.store.backendName)")
            }
        }

        static func readStandardInput() throws -> [UInt8] {
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65536)
            defer { for i in chunk.indices { chunk[i] = 0 } }
            while true {
                let n = chunk.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
                if n < 0 {
                    if errno == EINTR { continue }
                    throw CLIFailure.io("cannot read stdin")
                }
                if n == 0 { break }
                bytes += chunk[0..<n]
                guard bytes.count <= maximumSize else {
                    throw CLIFailure.usage("the secret on stdin is larger than \(maximumSize) bytes")
                }
            }
            return bytes
        }
    }
}
