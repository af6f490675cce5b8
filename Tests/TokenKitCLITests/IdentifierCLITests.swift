import Foundation
import Testing
import TokenKitTestSupport

/// The identifiers `tokenkit verify` is given (`--iss`, `--aud`, `--require`) are compared
/// byte for byte with the token's (issue 23 item 2): a canonically equivalent spelling
/// (U+212A KELVIN SIGN for "K", a decomposed "é") exits 1, the exact one 0.
@Suite("tokenkit: identifier options compared byte for byte")
struct IdentifierCLITests {
    static let kelvin = "\u{212A}"

    @Test("--iss, --aud and --require: the canonically equivalent spelling is rejected (exit 1), the exact one accepted")
    func options() async throws {
        let dir = try PrivateTemporaryDirectory()
        let key = try await CLIContractTests.makeKey("ES256", in: dir)
        let token = try await CLIContractTests.sign(
            #"{"iss":"https://\#(Self.kelvin).example","aud":["\#(Self.kelvin)api"],"caf\#u{E9}":1}"#, alg: "ES256", key: key)
        let exact = try await TokenKitCLI().run(["verify"] + key + [
            "--iss", "https://\(Self.kelvin).example", "--aud", "\(Self.kelvin)api", "--require", "caf\u{E9}", token,
        ], environment: .inherited)
        #expect(exact.status == 0, "\(exact.stderr)")
        for (option, value) in [("--iss", "https://K.example"), ("--aud", "Kapi"), ("--require", "cafe\u{301}")] {
            let result = try await TokenKitCLI().run(["verify"] + key + [option, value, token], environment: .inherited)
            #expect(result.status == 1, "\(option) \(value): \(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
        // Both spellings required: both must be present (a Set<String> kept only one of them).
        let both = try await TokenKitCLI().run(["verify"] + key + ["--require", "caf\u{E9}", "--require", "cafe\u{301}", token], environment: .inherited)
        #expect(both.status == 1, "\(both.stderr)")
    }
}
