import Foundation
import Testing
import TokenKitTestSupport

/// A locked default collection, in a private keyring of its own (a nested
/// `scripts/with-secret-service`, locked over D-Bus the way a screen locker does), read by
/// `tokenkit-secret-service-helper` in a child process:
/// - without `allowsUnlockPrompt` the store reports `locked` at once and never prompts;
/// - with it, the store asks gnome-keyring to prompt; the private bus has no prompter (no
///   display), so the prompt ends dismissed and the store reports `dismissed`, not "absent".
///
/// What cannot run here: a prompt answered by a user (needs a display and gcr-prompter).
@Suite struct SecretServiceUnlockPromptTests {
    /// Runs the helper against a freshly locked private keyring; returns its stdout line.
    func loadFromLockedKeyring(prompt: Bool) async throws -> (status: Int32, output: String) {
        let helper = try BuiltBinary.path(named: "tokenkit-secret-service-helper")
        let wrapper = SourceTree.path("scripts/with-secret-service")
        let directory = try PrivateTemporaryDirectory(prefix: "tokenkit-unlock")
        let lockFile = directory.file("secret-service.lock")
        defer { withExtendedLifetime(directory) {} }
        // Lock the default collection (gnome-keyring locks without a prompt), check that it
        // is locked, then run the helper on the same private bus.
        let script = PrivateSecretService.lockScript + "\nexec \"$@\"\n"
        // stdin and stderr are this process's; stdout is the helper's one line.
        let outcome = try await ChildProcess(
            wrapper, ["/bin/bash", "-c", script, "lock-then", helper, "load", prompt ? "--prompt" : "--no-prompt", "svc", "acct", lockFile],
            environment: ChildProcess.inheritedEnvironment(adding: ["WITH_SECRET_SERVICE_NO_INSTALL": "1", "WITH_SECRET_SERVICE_TIMEOUT": "60"]),
            stdin: .inherit, stderr: .inherit
        ).run()
        return (outcome.status, outcome.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test("a locked collection is reported as locked, with a hint, when prompting is not allowed")
    func lockedWithoutPrompt() async throws {
        let (status, output) = try await loadFromLockedKeyring(prompt: false)
        #expect(status == 1, "\(output)")
        #expect(output.hasPrefix("error locked: the default keyring collection is locked"), "\(output)")
        #expect(output.contains("unlock it"), "\(output)")
    }

    @Test("an unlock prompt that ends dismissed is reported as dismissed, not as a missing credential")
    func dismissedPrompt() async throws {
        let (status, output) = try await loadFromLockedKeyring(prompt: true)
        #expect(status == 1, "\(output)")
        #expect(output.hasPrefix("error dismissed: the unlock prompt for the default keyring collection was dismissed"), "\(output)")
    }
}
