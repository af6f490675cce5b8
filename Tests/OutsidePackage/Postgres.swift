import TokenKitAuth
import TokenKitPostgres
import TokenKitStore

/// The Postgres trait's product, as README's "Many replicas" example sets it up (no connection
/// is made: the store and the lock connect on first use).
enum TraitCheck {
    static func run() async throws -> String {
        let db = try PostgresEndpoint(url: "postgres://svc@127.0.0.1:5432/app", password: nil)
        let store = PostgresTokenStore(endpoint: db, key: try .passphrase("correct horse"))
        let lock = PostgresRefreshLock(endpoint: db)
        _ = (store, lock)
        return "trait Postgres: \(db)"
    }
}
