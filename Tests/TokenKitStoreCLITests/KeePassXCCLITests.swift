import Foundation
import Testing
import TokenKitTestSupport

/// `tokenkit store` against KeePassXC's Secret Service (issue 25): KeePassXC 2.7 under Xvfb on
/// a private bus (`scripts/with-keepassxc`), its database made with keepassxc-cli.
/// - With KeePassXC's defaults every read of an item needs the user's confirmation (an
///   "Access Request" window). On a display TokenKit asks for it (the Secret Service `Unlock`
///   of the item) and the test answers it with xdotool; headless, TokenKit does not prompt and
///   the error names the setting.
/// - Items TokenKit replaces or deletes go to the database's Recycle Bin, which KeePassXC
///   hides from the Secret Service (so no client can delete them there): with the recycle bin
///   off (and delete confirmation off) nothing old stays in the database; with it on, the old
///   secret is in the bin — the documented reason to turn it off.
@Suite("tokenkit store (KeePassXC's Secret Service)", .serialized)
struct KeePassXCCLITests {
    static let key = ["--service", "dev.tokenkit.kpx", "--account", "ci", "--backend", "secret-service"]

    /// Runs `body` with a private KeePassXC (`knobs`: WITH_KEEPASSXC_* settings); skips (or,
    /// with TOKENKIT_REQUIRE_KEEPASSXC=1, fails) when it cannot start.
    func withKeePassXC(_ knobs: [String: String] = [:], _ body: @Sendable (PrivateSecretService, [String: String]) async throws -> Void) async throws {
        let keepassxc: PrivateSecretService
        do {
            // One KeePassXC at a time (.serialized), with room to start on a busy machine.
            keepassxc = try await PrivateSecretService.start(
                script: "scripts/with-keepassxc", environment: knobs.merging(["WITH_KEEPASSXC_TIMEOUT": "80"]) { given, _ in given })
        } catch {
            try ServiceGate.require(false, otherwise: "KeePassXC did not start (\(error)); run scripts/install-prerequisites", requiredBy: "TOKENKIT_REQUIRE_KEEPASSXC")
            return
        }
        let home = try PrivateTemporaryDirectory(prefix: "tokenkit-kpx")
        defer { withExtendedLifetime(home) {} }
        try FileManager.default.createDirectory(atPath: home.file("run"), withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        var environment = keepassxc.environment
        environment["HOME"] = home.path
        environment["XDG_RUNTIME_DIR"] = home.file("run")
        do {
            try await body(keepassxc, environment)
            await keepassxc.stop()
        } catch {
            await keepassxc.stop()
            throw error
        }
    }

    /// Presses Return (KeePassXC's default button, "Allow Selected") on the first Access
    /// Request window that appears within 30 s on `display`; returns how many it answered.
    @discardableResult
    func allowAccessRequest(on display: String) async throws -> Int {
        let script = #"""
            for _ in $(seq 300); do
                for w in $(xdotool search --name 'Access Request' 2>/dev/null); do
                    xdotool windowfocus --sync "$w" key --clearmodifiers Return && echo answered && exit 0
                done
                sleep 0.1
            done
            exit 1
            """#
        let outcome = try await ChildProcess("/bin/bash", ["-c", script], environment: ["PATH": "/usr/bin:/bin", "DISPLAY": display], stdin: .bytes([]))
            .run(timeout: .seconds(60))
        return outcome.status == 0 ? 1 : 0
    }

    /// What the saved database holds for TokenKit's items titled `titles`, as keepassxc-cli
    /// reads the file after KeePassXC locked the database (which saves what it had not saved
    /// yet: it saves a change a moment after making it): the XML export (fields), then, per
    /// title, the secret attachment (KeePassXC keeps a non-text secret as the attachment
    /// FDO_SECRETS_DATA, which the XML export leaves out) of the entry in the exposed group
    /// and of the one in the Recycle Bin, where present. The database stays locked.
    /// The saved database (as ``savedDatabase(_:titles:)``) once `ready` holds for it, read
    /// again for up to 20 s: KeePassXC writes the file on its own schedule (a save after a
    /// change is delayed, and on a loaded machine a read can come before it), so one read can
    /// show the file from before the last change. `ready` is the whole expected state (what must
    /// be there and what must be gone); after 20 s the last read is returned and the caller's
    /// checks fail on it.
    func savedDatabase(_ keepassxc: PrivateSecretService, titles: [String], until ready: (String) -> Bool) async throws -> String {
        var database = try await savedDatabase(keepassxc, titles: titles)
        let end = ContinuousClock.now + .seconds(20)
        while !ready(database), ContinuousClock.now < end {
            try await Task.sleep(for: .milliseconds(500))
            database = try await savedDatabase(keepassxc, titles: titles)
        }
        return database
    }

    func savedDatabase(_ keepassxc: PrivateSecretService, titles: [String]) async throws -> String {
        let script = #"""
            db=$0; pw=$1; shift
            dbus-send --session --print-reply --reply-timeout=20000 --dest=org.keepassxc.KeePassXC.MainWindow /keepassxc \
                org.keepassxc.KeePassXC.MainWindow.lockAllDatabases >/dev/null || exit 1
            keepassxc-cli export -q -f xml "$db" < "$pw" || exit 1
            for title in "$@"; do
                for group in TokenKit 'Recycle Bin'; do
                    echo "== $group/$title"
                    keepassxc-cli attachment-export -q --stdout "$db" "$group/$title" FDO_SECRETS_DATA < "$pw" 2>/dev/null
                    echo
                done
            done
            """#
        let outcome = try await ChildProcess(
            "/bin/bash", ["-c", script, keepassxc.databasePath, keepassxc.databasePasswordPath] + titles,
            environment: ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory(), "DBUS_SESSION_BUS_ADDRESS": keepassxc.busAddress],
            stdin: .bytes([])
        ).run(timeout: .seconds(60))
        #expect(outcome.status == 0, "export: \(outcome.stderrText)")
        return outcome.stdoutText
    }

    @Test("KeePassXC's defaults on a desktop: a read asks for access, the test allows it, the secret comes back")
    func accessConfirmedOnDesktop() async throws {
        try await withKeePassXC { keepassxc, env in
            let put = try await TokenKitCLI().run(["store", "put"] + Self.key, stdin: Array("KPX-SECRET-1".utf8), environment: .isolated(env))
            #expect(put.status == 0, "\(put.stderr)")
            let display = try #require(keepassxc.display)
            async let reading = TokenKitCLI().run(["store", "get", "--reveal"] + Self.key, environment: .isolated(env))
            let answered = try await allowAccessRequest(on: display)
            let read = try await reading
            #expect(answered == 1, "no Access Request window appeared")
            #expect(read.status == 0, "\(read.stderr)")
            #expect(read.stdoutText == "KPX-SECRET-1")
        }
    }

    @Test("KeePassXC's defaults headless: a read fails at once, naming the setting, without a prompt")
    func accessConfirmationHeadless() async throws {
        try await withKeePassXC { keepassxc, env in
            var headless = env
            headless["DISPLAY"] = nil
            let put = try await TokenKitCLI().run(["store", "put"] + Self.key, stdin: Array("KPX-SECRET-2".utf8), environment: .isolated(headless))
            #expect(put.status == 0, "\(put.stderr)")
            let read = try await TokenKitCLI().run(["store", "get", "--reveal"] + Self.key, environment: .isolated(headless))
            expectOneErrorLine(read, status: 2, containing: "\"Confirm when passwords are retrieved by clients\"")
            #expect(read.stderr.contains("does not prompt here (no display"))
            #expect(!read.stderr.contains("KPX-SECRET-2"))
        }
    }

    static let recommended = ["WITH_KEEPASSXC_CONFIRM_ACCESS": "0", "WITH_KEEPASSXC_CONFIRM_DELETE": "0", "WITH_KEEPASSXC_RECYCLE_BIN": "0"]

    @Test("recommended settings (recycle bin off, no confirmations): a replaced secret leaves nothing in the database")
    func replacedLeavesNothing() async throws {
        try await withKeePassXC(Self.recommended) { keepassxc, env in
            for secret in ["KPX-OLD-SECRET", "KPX-NEW-SECRET"] {
                let put = try await TokenKitCLI().run(["store", "put"] + Self.key, stdin: Array(secret.utf8), environment: .isolated(env))
                #expect(put.status == 0, "\(put.stderr)")
            }
            let read = try await TokenKitCLI().run(["store", "get", "--reveal"] + Self.key, environment: .isolated(env))
            #expect(read.stdoutText == "KPX-NEW-SECRET", "\(read.stderr)")
            let database = try await savedDatabase(keepassxc, titles: ["TokenKit: ci @ dev.tokenkit.kpx"]) { $0.contains("KPX-NEW-SECRET") && !$0.contains("KPX-OLD-SECRET") }
            #expect(database.contains("KPX-NEW-SECRET"), "the saved database does not show stored secrets: this check would prove nothing")
            #expect(!database.contains("KPX-OLD-SECRET"))
        }
    }

    @Test("recommended settings: a deleted secret leaves nothing in the database")
    func deletedLeavesNothing() async throws {
        try await withKeePassXC(Self.recommended) { keepassxc, env in
            // Kept to the end: the saved database must show it, or the check below proves nothing.
            let keep = ["--service", "dev.tokenkit.kpx", "--account", "keep", "--backend", "secret-service"]
            #expect(try await TokenKitCLI().run(["store", "put"] + keep, stdin: Array("KPX-KEPT-SECRET".utf8), environment: .isolated(env)).status == 0)
            let put = try await TokenKitCLI().run(["store", "put"] + Self.key, stdin: Array("KPX-GONE-SECRET".utf8), environment: .isolated(env))
            #expect(put.status == 0, "\(put.stderr)")
            let delete = try await TokenKitCLI().run(["store", "delete"] + Self.key, environment: .isolated(env))
            #expect(delete.status == 0, "\(delete.stderr)")
            let database = try await savedDatabase(keepassxc, titles: ["TokenKit: keep @ dev.tokenkit.kpx", "TokenKit: ci @ dev.tokenkit.kpx"]) {
                $0.contains("KPX-KEPT-SECRET") && !$0.contains("KPX-GONE-SECRET")
            }
            #expect(database.contains("KPX-KEPT-SECRET"), "the saved database does not show stored secrets")
            #expect(!database.contains("KPX-GONE-SECRET"))
        }
    }

    @Test("KeePassXC's default recycle bin keeps a replaced secret (the reason the docs say to turn it off)")
    func recycleBinKeepsOldSecret() async throws {
        try await withKeePassXC(["WITH_KEEPASSXC_CONFIRM_ACCESS": "0"]) { keepassxc, env in
            for secret in ["KPX-BIN-OLD", "KPX-BIN-NEW"] {
                let put = try await TokenKitCLI().run(["store", "put"] + Self.key, stdin: Array(secret.utf8), environment: .isolated(env))
                #expect(put.status == 0, "\(put.stderr)")
            }
            let newest = "== TokenKit/TokenKit: ci @ dev.tokenkit.kpx\nKPX-BIN-NEW"
            let database = try await savedDatabase(keepassxc, titles: ["TokenKit: ci @ dev.tokenkit.kpx"]) { $0.contains(newest) && $0.contains("== Recycle Bin/TokenKit: ci @ dev.tokenkit.kpx\nKPX-BIN-OLD") }
            #expect(database.contains(newest), "\(database.suffix(300))")
            #expect(database.contains("== Recycle Bin/TokenKit: ci @ dev.tokenkit.kpx\nKPX-BIN-OLD"), "the replaced secret is not in the Recycle Bin")
        }
    }
}
