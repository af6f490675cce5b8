import Foundation
import Testing
import TokenKit
import TokenKitTestSupport

/// The README's App Store notification check, run as written against a chain shaped like
/// Apple's (Apple's marker OIDs on leaf and intermediate, the root in the x5c) built at test
/// time: only the root file's path and the notification come from the test.
@Suite("README App Store example", .enabled(if: PythonInterop.enabled, PythonInterop.skipMessage))
struct ReadmeAppStoreExampleTests {
    @Test("the README's x5c check with a pinned root verifies an App Store-shaped notification")
    func appStoreNotification() async throws {
        guard PythonInterop.requireAvailable() else { return }
        let (directory, manifest) = try await PythonInterop.generateX5CChains()
        defer { withExtendedLifetime(directory) {} }
        guard let scenario = manifest.cases.first(where: { $0.name == "appstore-notification" }) else {
            Issue.record("no appstore-notification scenario")
            return
        }
        let rootPath = scenario.root
        let signedPayload = scenario.token

        // --- README lines (the root's path and the payload come from the test) ---
        let appleRoot = try X509Certificate.certificates(pem: String(contentsOfFile: rootPath, encoding: .utf8))
        let verifier = try X5CVerifier(trustedRoots: appleRoot, policy: .appStore,  // Apple's marker OIDs, 3 certificates
                                       options: ValidationOptions(algorithms: [.es256], requiredClaims: []))
        struct Notification: Decodable { let notificationType: String; let notificationUUID: String }
        let notification = try verifier.verify(signedPayload, as: Notification.self)  // throws JWTError .certificateChain
        // --- end of README lines ---

        #expect(notification.notificationType == "DID_RENEW")
        #expect(notification.notificationUUID == "0f6c1a2e-2d4b-4c8e-9a57-7d1f0c9b3e21")
    }
}
