#if Hummingbird && Postgres
import Foundation
import Testing
import TokenKitAuth
import TokenKitTestSupport

/// ``AuthProvider``s in one process sharing a ``FileRefreshLock`` (the lock's own tests are in
/// TokenKitStoreTests).
@Suite("AuthProvider with a FileRefreshLock")
struct AuthProviderFileLockTests {
    @Test("two providers with separate caches over one store refresh once through the lock")
    func twoProviders() async throws {
        let directory = try PrivateTemporaryDirectory(prefix: "tokenkit-lock-test")
        defer { withExtendedLifetime(directory) {} }
        try await Fixture.with { f in
            try await f.seed(expiresIn: -5)
            let lock = FileRefreshLock(directory: directory.path)
            let providers = try (0..<4).map { _ in try f.provider(lock: lock) }
            let tokens = try await withThrowingTaskGroup(of: String.self) { group in
                for provider in providers {
                    for _ in 0..<25 { group.addTask { try await provider.validAccessToken() } }
                }
                var all: Set<String> = []
                for try await token in group { all.insert(token) }
                return all
            }
            #expect(tokens.count == 1)
            #expect(await f.state.refreshCount == 1)
            #expect(await f.state.reuseDetections == 0)
        }
    }
}
#endif
