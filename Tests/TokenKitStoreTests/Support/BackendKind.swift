import Foundation
import SecretServiceTestSupport
import Testing
import TokenKitTestSupport
import TokenKitSecretService
import TokenKitStore
import TokenKitTestSupport
#if Postgres
import PostgresTestSupport
import TokenKitPostgres
#endif

/// The backends the shared behavioural suite runs against (PostgreSQL in a build with the
/// `Postgres` trait, as scripts/test builds the tests).
enum BackendKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case memory
    case file
    case secretService = "secret-service"
    #if Postgres
    case postgres
    #endif

    var testDescription: String { rawValue }

    /// A fresh, empty-for-this-test store and the private directory its files live in (hold it
    /// while the store is used: it is removed when released). The Secret Service is shared, so
    /// its tests use unique service names instead (``uniqueService()``).
    func makeStore() async throws -> (store: any TokenStore, directory: PrivateTemporaryDirectory?) {
        switch self {
        case .memory:
            return (MemoryTokenStore(), nil)
        case .file:
            let directory = try PrivateTemporaryDirectory()
            let store = EncryptedFileStore(
                path: "\(directory)/store/credentials.tkstore", key: try FileStoreKey.passphrase("correct horse"),
                options: .init(scryptCost: ScryptCost(logN: 4, r: 8, p: 1)))
            return (store, directory)
        case .secretService:
            try await SecretServiceGate.requireLive()
            let directory = try PrivateTemporaryDirectory()
            let store = SecretServiceStore(
                options: .init(lockFilePath: "\(directory)/secret-service.lock", timeout: .seconds(10)),
                environment: ProcessInfo.processInfo.environment)
            return (store, directory)
        #if Postgres
        case .postgres:
            // One shared table: the tests use unique service names, as with the Secret Service.
            let store = PostgresTokenStore(
                endpoint: try PostgresTestServer.main(), key: try FileStoreKey.passphrase("correct horse"),
                options: .init(table: try PostgresTableName("tokenkit_contract"), scryptCost: ScryptCost(logN: 4, r: 8, p: 1)))
            return (store, nil)
        #endif
        }
    }
}

/// A service name no other test (or earlier run) uses.
func uniqueService(_ label: String = "test") -> String {
    "dev.tokenkit.tests.\(label).\(UUID().uuidString)"
}
