import Foundation
import Testing
import TokenKitTestSupport

/// Wycheproof json_web_signature_test.json (and json_web_key_test.json) through the built
/// binary: `tokenkit verify --jws --key FILE -- TOKEN` (or `--jwks FILE`) with the group's
/// JWK/JWKS written to a temporary file. Valid vectors must exit 0 and print exactly the
/// payload bytes; invalid ones must exit 1 or 2 (2: the key itself was refused) with
/// nothing on stdout and exactly one `error:` line. Vectors Wycheproof marks valid that
/// TokenKit refuses on purpose are named below with their reason and exit code.
@Suite("Wycheproof JWS through tokenkit verify --jws")
struct WycheproofJWSCLITests {
    /// Valid vectors refused on purpose: tcId → (exit code, reason).
    static let refusedOnPurpose: [String: [Int: (exit: Int32, why: String)]] = [
        "json_web_signature_test.json": [
            347: (2, "RFC 7520 §4.3 key has alg \"ES521\" (typo for ES512): the key is refused, not guessed"),
            351: (2, "same ES521 typo, with key_ops"),
            346: (1, "RFC 7520 §4.2 token is PS384 but the group's JWK says alg PS256: a JWK's own alg binds the key"),
            350: (1, "same PS384 token against the PS256-bound JWK, with key_ops"),
            372: (1, "'?' inside the header part: outside the base64url alphabet"),
            373: (1, "'?' inside the payload part: outside the base64url alphabet"),
        ],
        "json_web_key_test.json": [:],
    ]

    /// Vectors marked invalid that are byte-for-byte a valid vector of the same group (the
    /// padding they are named for is absent from the file): tcId → the valid twin's tcId.
    static let invalidDuplicatesOfValid: [String: [Int: Int]] = [
        "json_web_signature_test.json": [367: 357, 370: 357],
    ]

    static let cases = ((try? WycheproofJOSE.cases("json_web_signature_test.json")) ?? [])
        + ((try? WycheproofJOSE.cases("json_web_key_test.json")) ?? [])

    @Test("both vector files are found and complete")
    func vectorsLoad() {
        #expect(Self.cases.count == 401 + 26)
    }

    @Test("each vector's verdict, exit code and output match", arguments: cases)
    func verdict(_ c: WycheproofJOSE.Case) async throws {
        let dir = try PrivateTemporaryDirectory()
        let keyFile = try dir.write("key.json", c.keyJSON)
        let option = c.isKeySet ? "--jwks" : "--key"
        let result = try await TokenKitCLI().run(["verify", "--jws", option, keyFile, "--", c.jws], environment: .inherited)
        if let deliberate = Self.refusedOnPurpose[c.file]?[c.tcId] {
            #expect(c.valid, "listed as refused on purpose but not a valid vector")
            #expect(result.status == deliberate.exit, "refused on purpose (\(deliberate.why)): exit \(result.status), \(result.stderr)")
            Self.expectRejectionShape(result)
            return
        }
        if let twin = Self.invalidDuplicatesOfValid[c.file]?[c.tcId] {
            let valid = Self.cases.first { $0.file == c.file && $0.tcId == twin }
            #expect(valid?.valid == true && valid?.jws == c.jws && valid?.keyJSON == c.keyJSON,
                    "no longer identical to valid tcId \(twin): remove it from invalidDuplicatesOfValid")
            #expect(result.status == 0, "the valid twin must verify: \(result.stderr)")
            return
        }
        if c.valid {
            #expect(result.status == 0, "valid vector refused: exit \(result.status): \(result.stderr)")
            let payloadPart = c.jws.split(separator: ".", omittingEmptySubsequences: false)[1]
            #expect(result.stdout == Self.base64URLDecode(String(payloadPart)), "stdout is not exactly the payload bytes")
            #expect(result.stderr.isEmpty)
        } else {
            #expect(result.status == 1 || result.status == 2, "invalid vector: exit \(result.status)")
            Self.expectRejectionShape(result)
        }
    }

    static func expectRejectionShape(_ result: CLIResult, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.stdout.isEmpty, "stdout must be empty on rejection", sourceLocation: sourceLocation)
        #expect(result.stderrLines.count == 1, "exactly one stderr line: \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderrLines.first?.hasPrefix("error:") == true, sourceLocation: sourceLocation)
    }

    static func base64URLDecode(_ text: String) -> [UInt8] {
        var s = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while s.count % 4 != 0 { s += "=" }
        return Array(Data(base64Encoded: s) ?? Data())
    }
}
