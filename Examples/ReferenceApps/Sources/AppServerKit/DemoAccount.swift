import Foundation

/// The one account the dashboard and DAM servers start with.
public enum DemoAccount {
    /// The login name: `demo`.
    public static let login = "demo"
    /// The environment variable that sets its password (default `demo-password`).
    public static let passwordVariable = "REFAPPS_DEMO_PASSWORD"

    /// Adds the demo account to `accounts`, its password from ``passwordVariable``.
    public static func seed(_ accounts: AccountBook, name: String, environment: [String: String] = ProcessInfo.processInfo.environment) async throws {
        let password = environment[passwordVariable].flatMap { $0.isEmpty ? nil : $0 } ?? "demo-password"
        _ = try await accounts.register(login: login, name: name, password: password)
    }
}
