import Foundation
import Testing
import TokenKitTestSupport

/// Pins `tokenkit verify --x5c-root` (issue 28): the payload printed like `verify` (exit 0);
/// every chain failure exit 1 with one stderr line starting `error: certificate chain:`; a
/// token without x5c exit 1; `--x5c-root` with `--key`, `--jwks` or `--secret` exit 64.
/// Chains come from Tests/Interop/x5c_chains.py, built at test time.
@Suite("tokenkit verify --x5c-root contract", .enabled(if: PythonInterop.enabled, PythonInterop.skipMessage))
struct X5CVerifyCLITests {
    @Test("every scenario: exit 0 with the payload, or exit 1 with one line naming the chain failure")
    func scenarios() async throws {
        guard PythonInterop.requireAvailable() else { return }
        let (directory, manifest) = try await PythonInterop.generateX5CChains()
        defer { withExtendedLifetime(directory) {} }
        let now = String(Int(manifest.now))
        for c in manifest.cases {
            let result = try await TokenKitCLI().run(["verify", "--x5c-root", c.root, "--now", now, c.token], environment: .inherited)
            if c.expect == "ok" {
                #expect(result.status == 0, "\(c.name): \(result.stderr)")
                #expect(result.stdoutText.hasPrefix("{") && result.stdoutText.hasSuffix("}\n"), "\(c.name)")
                continue
            }
            #expect(result.status == 1, "\(c.name): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(c.name)")
            #expect(result.stderrLines.count == 1, "\(c.name): \(result.stderr)")
            #expect(result.stderr.contains(c.expect), "\(c.name): \(result.stderr)")
            if !["wrong-signer", "alg-not-leaf-type"].contains(c.name) {
                #expect(result.stderr.hasPrefix("error: certificate chain:"), "\(c.name): \(result.stderr)")
            }
        }
    }

    @Test("iss and aud are checked after the chain, --x5c-root repeats, the payload matches verify's form")
    func optionsAndRepeatedRoots() async throws {
        guard PythonInterop.requireAvailable() else { return }
        let (directory, manifest) = try await PythonInterop.generateX5CChains()
        defer { withExtendedLifetime(directory) {} }
        guard let valid = manifest.cases.first(where: { $0.name == "valid-ES256" }),
              let other = manifest.cases.first(where: { $0.name == "valid-RS256" }) else { Issue.record("scenarios missing"); return }
        let now = String(Int(manifest.now))
        let ok = try await TokenKitCLI().run(["verify", "--x5c-root", other.root, "--x5c-root", valid.root, "--now", now,
                                    "--iss", "x5c-issuer", "--aud", "x5c-audience", valid.token], environment: .inherited)
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(ok.stdoutText.contains(#""sub":"x5c-subject""#))
        let wrongAudience = try await TokenKitCLI().run(["verify", "--x5c-root", valid.root, "--now", now, "--aud", "elsewhere", valid.token], environment: .inherited)
        #expect(wrongAudience.status == 1 && wrongAudience.stderrLines.count == 1)
        let onlyOther = try await TokenKitCLI().run(["verify", "--x5c-root", other.root, "--now", now, valid.token], environment: .inherited)
        #expect(onlyOther.status == 1 && onlyOther.stderr.hasPrefix("error: certificate chain:"))
        let stdin = try await TokenKitCLI().run(["verify", "--x5c-root", valid.root, "--now", now, "-"], stdin: Array((valid.token + "\n").utf8), environment: .inherited)
        #expect(stdin.status == 0, "\(stdin.stderr)")
    }

    @Test("--x5c-root with --key, --jwks, --secret or --issuer-discovery is a usage error; an unreadable root exits 2")
    func usageAndRootErrors() async throws {
        let dir = try PrivateTemporaryDirectory()
        let root = try dir.write("root.pem", "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n")
        let key = dir.file("key.pem")
        _ = try await TokenKitCLI().run(["keygen", "--alg", "ES256", "--out", key], environment: .inherited)
        for extra in [["--key", key], ["--jwks", key], ["--secret", key], ["--issuer-discovery", "--iss", "https://id.example"]] {
            let result = try await TokenKitCLI().run(["verify", "--x5c-root", root] + extra + ["a.b.c"], environment: .inherited)
            #expect(result.status == 64, "\(extra): \(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
        for bad in [root, dir.file("missing.pem"), key] {
            let result = try await TokenKitCLI().run(["verify", "--x5c-root", bad, "a.b.c"], environment: .inherited)
            #expect(result.status == 2, "\(bad): \(result.stderr)")
            #expect(result.stderrLines.count == 1)
        }
    }
}
