import ArgumentParser
import Foundation
import TokenKitStore

/// A failure of a `tokenkit store` command: its one-line reason and its exit status.
///
/// Exit statuses follow the CLI contract: 1 not found or rejected, 2 I/O or key errors
/// (wrong passphrase, damaged file, no Secret Service, locked keyring, timeouts), 64 usage.
struct StoreCLIError: Error {
    let message: String
    let exitCode: Int32

    static func usage(_ message: String) -> StoreCLIError { .init(message: message, exitCode: 64) }
    static func notFound(_ message: String) -> StoreCLIError { .init(message: message, exitCode: 1) }
    static func storage(_ message: String) -> StoreCLIError { .init(message: message, exitCode: 2) }

    /// Maps a store error to its exit status; the message is the store's own (never secret).
    init(_ error: TokenStoreError) {
        switch error.code {
        case .invalidKey, .invalidTokenSet: self.init(message: error.message, exitCode: 64)
        case .wrongKind: self.init(message: error.message, exitCode: 1)
        default: self.init(message: error.message, exitCode: 2)
        }
    }

    init(message: String, exitCode: Int32) {
        self.message = message
        self.exitCode = exitCode
    }
}

/// Runs a store command body; on failure prints exactly one line `error: REASON` on stderr
/// and exits with the failure's status (nothing is printed on stdout).
func runStoreCommand(_ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch let error as StoreCLIError {
        try fail(error)
    } catch let error as TokenStoreError {
        try fail(StoreCLIError(error))
    } catch let error as ExitCode {
        throw error
    } catch is CancellationError {
        try fail(.storage("cancelled"))
    } catch {
        // Only store and CLI errors are expected here; anything else still gets the one-line
        // contract (its type name only: its description is not vetted for secrets).
        try fail(.storage("unexpected failure (\(type(of: error)))"))
    }
}

private func fail(_ error: StoreCLIError) throws -> Never {
    StandardStreams.writeError("error: \(StandardStreams.oneLine(error.message))")
    throw ExitCode(error.exitCode)
}
