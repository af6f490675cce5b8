import Foundation
import Testing
import TokenKitTestSupport

/// Skips (or, with TOKENKIT_REQUIRE_SECRET_SERVICE=1, fails) when no Secret Service answers,
/// checked by asking the binary itself to list on the secret-service backend with
/// `environment` (plus a standard PATH when it sets none).
func requireLiveSecretService(_ environment: [String: String]) async throws {
    let result = try await TokenKitCLI().run(
        ["store", "list", "--service", "probe.\(UUID().uuidString)", "--backend", "secret-service"], environment: .isolated(environment))
    try SecretServiceEnvironment.require(
        available: result.status == 0, reason: result.stderr.trimmingCharacters(in: .whitespacesAndNewlines))
}
