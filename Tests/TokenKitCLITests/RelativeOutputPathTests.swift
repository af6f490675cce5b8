import Foundation
import Testing
import TokenKitTestSupport

/// Issue 10 finding 4, outside the store: Foundation's path splitting trapped (exit 132) on a
/// bare relative name, so `keygen --out NAME` crashed instead of writing `./NAME`.
@Suite("keygen --out with relative names")
struct RelativeOutputPathTests {
    @Test("a bare name, a ./ name and a name in a subdirectory are written where they say",
          arguments: ["es256.pem", "./es256.pem", "keys/es256.pem", "keys//es256.pem"])
    func relativeNames(out: String) async throws {
        let dir = try PrivateTemporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir.file("keys"), withIntermediateDirectories: false)
        let result = try await TokenKitCLI().run(["keygen", "--alg", "ES256", "--out", out], environment: .inherited, directory: dir.path)
        #expect(result.status == 0, "exit \(result.status): \(result.stderr)")
        let written = dir.path + "/" + out
        #expect(FileManager.default.fileExists(atPath: written))
        #expect((try FileManager.default.attributesOfItem(atPath: written)[.posixPermissions] as? Int) == 0o600)
    }

    @Test("a name in a missing directory is one error line, exit 2, not a crash")
    func missingDirectory() async throws {
        let dir = try PrivateTemporaryDirectory()
        let result = try await TokenKitCLI().run(["keygen", "--alg", "ES256", "--out", "missing/es256.pem"], environment: .inherited, directory: dir.path)
        #expect(result.status == 2, "exit \(result.status): \(result.stderr)")
        #expect(result.stderrLines.count == 1 && result.stderr.hasPrefix("error: "))
    }
}
