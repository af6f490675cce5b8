import Foundation
import Testing
import TokenKitSecretService
import TokenKitTestSupport

/// The library's probe in front of ``SecretServiceEnvironment/require(available:reason:sourceLocation:)``,
/// for the suites that link the Secret Service backend (not shipped).
public enum SecretServiceGate {
    /// Returns when a Secret Service answers on this process's DBUS_SESSION_BUS_ADDRESS (probe
    /// bounded by 2 s); otherwise skips the test, or fails it under
    /// TOKENKIT_REQUIRE_SECRET_SERVICE=1 (CI).
    public static func requireLive(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let status = await SecretServiceProbe.check(environment: ProcessInfo.processInfo.environment, timeout: .seconds(2))
        try SecretServiceEnvironment.require(available: status.isAvailable, reason: status.reason, sourceLocation: sourceLocation)
    }
}
