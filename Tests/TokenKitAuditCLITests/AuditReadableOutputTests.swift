import Foundation
import Testing
import TokenKitTestSupport

@Suite("tokenkit audit readable output, CSV and policies")
struct AuditReadableOutputTests {
    static let tokens = [
        Tokens.claims(#""jti":"id-1","sub":"alice","iat":1699998200,"exp":1700001800"#),
        Tokens.claims(#""sub":"bob","iat":1699990000,"exp":1699999000"#),
        "garbage",
        Tokens.claims(#""sub":"carol","iat":1699900000"#),
    ]

    @Test func tableWithSummaryAndNoTokens() async throws {
        let result = try await TokenKitCLI().run(["audit", "--now", Tokens.now], stdin: Self.tokens.joined(separator: "\n"), environment: .inherited(adding: ["NO_COLOR": "1"]))
        #expect(result.status == 1)
        #expect(result.lines.first?.hasPrefix("  LINE  REF") == true)
        #expect(result.stdoutText.contains("id-1"))
        #expect(result.stdoutText.contains("sha256:"))
        #expect(result.stdoutText.contains("4 tokens: 1 ok, 1 expired, 0 not-yet-valid, 1 no-expiry, 1 malformed"))
        #expect(result.stdoutText.contains("lifetime (2 with iat and exp): min 1h, median 1h, p95 2h 30m, max 2h 30m"))
        #expect(result.stdoutText.contains("soonest expiry: id-1 (-:1) in 30m"))
        #expect(!result.stdoutText.contains("\u{1B}["), "no colour when stdout is not a terminal")
        for token in Self.tokens where token != "garbage" {
            #expect(!result.stdoutText.contains(token))
            #expect(!result.stderr.contains(token))
        }
        #expect(result.stderr.isEmpty, "no progress when stderr is not a terminal")
    }

    @Test func csv() async throws {
        let result = try await TokenKitCLI().run(["audit", "--format", "csv", "--now", Tokens.now], stdin: Self.tokens.joined(separator: "\n"), environment: .inherited)
        #expect(result.lines.first == "file,line,reference,status,alg,kid,iss,sub,aud,iat,nbf,exp,lifetime,remaining,findings,problem")
        #expect(result.lines.count == 5)
        #expect(result.lines[1] == "-,1,id-1,ok,HS256,,,alice,,1699998200,,1700001800,3600,1800,,")
        #expect(result.lines[2].hasPrefix("-,2,sha256:"))
        #expect(result.lines[2].hasSuffix(",expired,HS256,,,bob,,1699990000,,1699999000,9000,-1000,expired,"))
    }

    @Test func extraPolicies() async throws {
        let input = [
            Tokens.claims(#""sub":"a","iat":1699999000,"exp":1700000300"#),           // expires in 5m
            Tokens.claims(#""sub":"a","iat":1699999000,"exp":1700003000"#, alg: "RS256"),
        ].joined(separator: "\n")
        let result = try await TokenKitCLI().run([
            "audit", "--json", "--now", Tokens.now, "--warn-within", "10m", "--require-claim", "scope",
            "--allowed-alg", "RS256,ES256",
        ], stdin: input, environment: .inherited)
        #expect(result.lines.count == 2)
        #expect(result.lines[0].contains(#""status":"ok""#))
        #expect(result.lines[0].contains(#""findings":["expires-soon","missing-claim","alg-not-allowed"]"#))
        #expect(result.lines[1].contains(#""findings":["missing-claim"]"#))
        #expect(result.status == 1)
        let passing = try await TokenKitCLI().run(["audit", "--now", Tokens.now, "--warn-within", "10m", "--fail-on", "expired"], stdin: input, environment: .inherited)
        #expect(passing.status == 0)
    }

    @Test func signatureChecksReportBadSignature() async throws {
        let files = try PrivateTemporaryDirectory(prefix: "tokenkit-audit")
        let secret = try files.write("secret.bin", String(repeating: "k", count: 32))
        let signed = try await TokenKitCLI().run(["sign", "--alg", "HS256", "--secret", secret, #"{"sub":"x","iat":1699999000,"exp":1700003000}"#], environment: .inherited)
        try #require(signed.status == 0, "sign: \(signed.stderr)")
        let good = signed.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        let forged = Tokens.claims(#""sub":"x","iat":1699999000,"exp":1700003000"#)
        let result = try await TokenKitCLI().run(["audit", "--json", "--now", Tokens.now, "--secret", secret], stdin: good + "\n" + forged, environment: .inherited)
        #expect(result.lines.count == 2)
        #expect(result.lines[0].contains(#""findings":[]"#))
        #expect(result.lines[1].contains(#""findings":["bad-signature"]"#))
        #expect(result.status == 1)
        #expect(try await TokenKitCLI().run(["audit", "--secret", "/nonexistent/secret"], stdin: good, environment: .inherited).status == 2)
    }

    @Test func largeInputCounts() async throws {
        var text = ""
        for i in 0..<20_000 {
            let exp = i % 4 == 0 ? 1_699_999_000 : 1_700_003_000
            text += Tokens.claims(#""sub":"u\#(i)","iat":1699999000,"exp":\#(exp)"#) + "\n"
        }
        let files = try PrivateTemporaryDirectory(prefix: "tokenkit-audit")
        let path = try files.write("tokens.txt", text)
        let result = try await TokenKitCLI().run(["audit", "--now", Tokens.now, path], environment: .inherited(adding: ["NO_COLOR": "1"]))
        #expect(result.status == 1)
        let expectedLines: Int = 1 + 20_000 + 1 + 6  // header, rows, blank, summary
        #expect(result.lines.count == expectedLines)
        #expect(result.stdoutText.contains("20,000 tokens: 15,000 ok, 5,000 expired, 0 not-yet-valid, 0 no-expiry, 0 malformed"))
    }
}

@Suite("tokenkit audit signature checks with public keys")
struct AuditPublicKeyTests {
    @Test func keyAndJWKS() async throws {
        let files = try PrivateTemporaryDirectory(prefix: "tokenkit-audit")
        let directory = URL(fileURLWithPath: files.path)
        let keyPath = directory.appendingPathComponent("es256.pem").path
        try #require(try await TokenKitCLI().run(["keygen", "--alg", "ES256", "--out", keyPath], environment: .inherited).status == 0)
        let otherPath = directory.appendingPathComponent("other.pem").path
        try #require(try await TokenKitCLI().run(["keygen", "--alg", "ES256", "--out", otherPath], environment: .inherited).status == 0)
        let claims = #"{"sub":"x","iat":1699999000,"exp":1700003000}"#
        let good = try await TokenKitCLI().run(["sign", "--alg", "ES256", "--key", keyPath, claims], environment: .inherited).stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        let forged = try await TokenKitCLI().run(["sign", "--alg", "ES256", "--key", otherPath, claims], environment: .inherited).stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        let input = good + "\n" + forged + "\n"

        let withKey = try await TokenKitCLI().run(["audit", "--json", "--now", Tokens.now, "--key", keyPath], stdin: input, environment: .inherited)
        #expect(withKey.lines.count == 2)
        #expect(withKey.lines[0].contains(#""findings":[]"#))
        #expect(withKey.lines[1].contains(#""findings":["bad-signature"]"#))
        #expect(withKey.status == 1)

        let jwk = try await TokenKitCLI().run(["jwk", keyPath], environment: .inherited).stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        let jwksPath = directory.appendingPathComponent("keys.json").path
        try Data(#"{"keys":[\#(jwk)]}"#.utf8).write(to: URL(fileURLWithPath: jwksPath))
        let withJWKS = try await TokenKitCLI().run(["audit", "--json", "--now", Tokens.now, "--jwks", jwksPath], stdin: input, environment: .inherited)
        #expect(withJWKS.lines.count == 2)
        #expect(withJWKS.lines[0].contains(#""findings":[]"#), "\(withJWKS.stderr)")
        #expect(withJWKS.lines[1].contains("bad-signature"))

        let table = try await TokenKitCLI().run(["audit", "--now", Tokens.now, "--key", keyPath], stdin: input, environment: .inherited)
        #expect(table.stdoutText.contains("bad-signature (bad signature"))
        #expect(!table.stdoutText.contains(good) && !table.stdoutText.contains(forged))
        #expect(try await TokenKitCLI().run(["audit", "--key", keyPath, "--secret", keyPath], stdin: input, environment: .inherited).status == 64)
    }
}

@Suite("tokenkit audit --store")
struct AuditStoreTests {
    @Test func auditsTokensHeldInAnEncryptedFileStore() async throws {
        let files = try PrivateTemporaryDirectory(prefix: "tokenkit-audit")
        let directory = URL(fileURLWithPath: files.path)
        let passphrase = directory.appendingPathComponent("pass.txt").path
        try Data("correct horse battery\n".utf8).write(to: URL(fileURLWithPath: passphrase))
        // A passphrase file other users may read is refused: keep it private.
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: passphrase)
        let storeFile = directory.appendingPathComponent("creds.tkstore").path
        let backend = ["--backend", "file", "--file", storeFile, "--passphrase-file", passphrase]
        let access = Tokens.claims(#""sub":"alice","iat":1699998200,"exp":1700001800"#)
        let id = Tokens.claims(#""sub":"alice","iat":1699990000,"exp":1699999000"#)
        let tokenSet = #"{"access_token":"\#(access)","refresh_token":"opaque","id_token":"\#(id)"}"#
        let put = try await TokenKitCLI().run(["store", "put", "--service", "mail", "--account", "alice", "--token-set", "--scrypt-log-n", "10"] + backend,
                              stdin: tokenSet, environment: .inherited)
        try #require(put.status == 0, "store put: \(put.stderr)")
        try #require(try await TokenKitCLI().run(["store", "put", "--service", "mail", "--account", "bob", "--scrypt-log-n", "10"] + backend,
                                 stdin: "hunter2", environment: .inherited).status == 0)

        let result = try await TokenKitCLI().run(["audit", "--json", "--now", Tokens.now, "--store", "--service", "mail"] + backend, environment: .inherited)
        #expect(result.status == 1)
        #expect(result.lines.count == 2, "access and ID token of alice; bob's password is skipped")
        #expect(result.lines.allSatisfy { $0.hasSuffix(#""file":"store:mail/alice"}"#) })
        #expect(result.lines[0].contains(#""line":1,"status":"ok""#))
        #expect(result.lines[1].contains(#""line":2,"status":"expired""#))

        let table = try await TokenKitCLI().run(["audit", "--now", Tokens.now, "--store", "--service", "mail"] + backend, environment: .inherited)
        #expect(table.stdoutText.contains("store:mail/alice:1"))
        for secret in [access, id, "hunter2", "opaque"] { #expect(!table.stdoutText.contains(secret) && !table.stderr.contains(secret)) }

        #expect(try await TokenKitCLI().run(["audit", "--store"] + backend, environment: .inherited).status == 64, "--store needs --service")
        #expect(try await TokenKitCLI().run(["audit", "--service", "mail"], stdin: access, environment: .inherited).status == 64, "--service needs --store")
    }
}
