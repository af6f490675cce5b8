import Foundation
import Testing
import TokenKitTestSupport

/// The store CLI's wall-clock bounds. `scripts/test` runs this suite in its isolated first
/// pass (with the Secret Service suites), never beside hundreds of process-spawning tests on
/// two busy cores, where a threshold measures the machine's load rather than the code.
@Suite("tokenkit store: time bounds (isolated pass)")
struct StoreTimingCLITests {
    var environment: [String: String] { StoreSecretServiceCLITests().environment }

    @Test("--backend auto with no Secret Service falls back to the file within 3 s")
    func autoFallbackIsFast() async throws {
        let fx = try StoreFileCLITests.Fixture()
        let env = ["HOME": fx.directory, "TOKENKIT_PASSPHRASE": "auto-pass", "XDG_DATA_HOME": "\(fx.directory)/xdg",
                   "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/bus"]
        let put = try await TokenKitCLI().run(["store", "put", "--service", "api", "--account", "auto", "--scrypt-log-n", "4"], stdin: Array("S".utf8), environment: .isolated(env))
        #expect(put.status == 0, "\(put.stderr)")
        #expect(put.elapsed < .seconds(3), "took \(put.elapsed)")
    }

    @Test("--backend secret-service with no Secret Service fails within 3 s")
    func missingSecretServiceIsFast() async throws {
        let fx = try StoreFileCLITests.Fixture()
        let result = try await TokenKitCLI().run(
            ["store", "put", "--service", "api", "--account", "x", "--backend", "secret-service"], stdin: Array("S".utf8),
            environment: .isolated(["HOME": fx.directory, "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/bus"]))
        print("no-Secret-Service failure took \(result.elapsed)")
        #expect(result.status == 2)
        #expect(result.elapsed < .seconds(3))
    }

    @Test("a hung Secret Service (provider stopped) gives a timeout error within the deadline, not a 50 s hang")
    func hungProvider() async throws {
        try await requireLiveSecretService(environment)
        let result = try await StoreSecretServiceCLITests().inPrivateKeyring("""
            kill -STOP "$WITH_SECRET_SERVICE_KEYRING_PID" || exit 99
            start=$(date +%s%N)
            printf 'HUNG-SECRET' | "$TOKENKIT" store put --service svc --account a --backend secret-service
            rc=$?
            echo "elapsed_ms=$(( ($(date +%s%N) - start) / 1000000 ))" >&2
            kill -CONT "$WITH_SECRET_SERVICE_KEYRING_PID"
            exit $rc
            """)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("error: "))
        #expect(result.stderr.contains("did not answer within 5 s"))
        #expect(!result.stderr.contains("HUNG-SECRET"))
        let elapsed = result.stderr.split(separator: "\n").compactMap { $0.hasPrefix("elapsed_ms=") ? Int($0.dropFirst(11)) : nil }.first
        print("hung provider: tokenkit gave up after \(elapsed.map(String.init) ?? "?") ms")
        #expect((elapsed ?? .max) < 8_000)
    }
}
