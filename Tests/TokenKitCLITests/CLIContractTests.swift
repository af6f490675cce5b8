import Foundation
import Testing
import TokenKitTestSupport

/// Pins the `tokenkit` CLI contract: flags, outputs and exit codes other tools script against.
@Suite("tokenkit CLI contract")
struct CLIContractTests {
    static let asymmetric = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "ES256K", "EdDSA"]
    static let hmac = ["HS256", "HS384", "HS512"]

    /// Generates a key for `alg` in `dir` and returns the option pair that selects it.
    static func makeKey(_ alg: String, in dir: PrivateTemporaryDirectory) async throws -> [String] {
        let path = dir.file("key-\(alg)")
        let result = try await TokenKitCLI().run(["keygen", "--alg", alg, "--out", path], environment: .inherited)
        #expect(result.status == 0, "keygen \(alg): \(result.stderr)")
        return [alg.hasPrefix("HS") ? "--secret" : "--key", path]
    }

    static func sign(_ claims: String, alg: String, key: [String], extra: [String] = []) async throws -> String {
        let result = try await TokenKitCLI().run(["sign", "--alg", alg] + key + extra + [claims], environment: .inherited)
        #expect(result.status == 0, "sign \(alg): \(result.stderr)")
        return result.stdoutText.trimmingCharacters(in: .newlines)
    }

    @Test("sign then verify round-trips for every algorithm, printing the payload as one JSON object",
          arguments: asymmetric + hmac)
    func signVerifyRoundTrip(alg: String) async throws {
        let dir = try PrivateTemporaryDirectory()
        let key = try await Self.makeKey(alg, in: dir)
        let sign = try await TokenKitCLI().run(["sign", "--alg", alg] + key + ["{\"sub\":\"alice\",\"n\":1}"], environment: .inherited)
        #expect(sign.status == 0)
        #expect(sign.stdoutText.hasSuffix("\n"))
        #expect(sign.stdoutText.filter { $0 == "." }.count == 2)
        let token = sign.stdoutText.trimmingCharacters(in: .newlines)
        let verify = try await TokenKitCLI().run(["verify"] + key + [token], environment: .inherited)
        #expect(verify.status == 0, "\(verify.stderr)")
        #expect(verify.stdoutText == "{\"sub\":\"alice\",\"n\":1}\n")
    }

    @Test("an expired token exits 1 with nothing on stdout and exactly one error: line naming the expiry")
    func expiredTokenContract() async throws {
        let dir = try PrivateTemporaryDirectory()
        let key = try await Self.makeKey("ES256", in: dir)
        let token = try await Self.sign("{}", alg: "ES256", key: key, extra: ["--now", "1795000000", "--expires-in", "1h"])
        let result = try await TokenKitCLI().run(["verify"] + key + ["--now", "1795003600", token], environment: .inherited)
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderrLines.first?.hasPrefix("error: token expired at 2026-11-18T12:06:40Z (now 2026-11-18T12:06:40Z)") == true)
        // One second earlier it is still valid; leeway extends it.
        #expect(try await TokenKitCLI().run(["verify"] + key + ["--now", "1795003599", token], environment: .inherited).status == 0)
        #expect(try await TokenKitCLI().run(["verify"] + key + ["--now", "1795003600", "--leeway", "5", token], environment: .inherited).status == 0)
    }

    @Test("--expires-in adds iat = now and exp = now + duration", arguments: [("90s", 90), ("15m", 900), ("1h", 3600), ("7d", 604_800), ("120", 120)])
    func expiresInAddsClaims(duration: String, seconds: Int) async throws {
        let dir = try PrivateTemporaryDirectory()
        let key = try await Self.makeKey("HS256", in: dir)
        let token = try await Self.sign("{\"sub\":\"s\"}", alg: "HS256", key: key, extra: ["--now", "1000", "--expires-in", duration])
        let decoded = try await TokenKitCLI().run(["decode", token], environment: .inherited)
        #expect(decoded.stdoutText.contains("\"iat\":1000"))
        #expect(decoded.stdoutText.contains("\"exp\":\(1000 + seconds)"))
    }

    @Test("nbf in the future is rejected; leeway admits it", arguments: [0, 10])
    func notBefore(leeway: Int) async throws {
        let dir = try PrivateTemporaryDirectory()
        let key = try await Self.makeKey("HS256", in: dir)
        let token = try await Self.sign("{\"nbf\":1005}", alg: "HS256", key: key)
        let result = try await TokenKitCLI().run(["verify"] + key + ["--now", "1000", "--leeway", String(leeway), token], environment: .inherited)
        if leeway == 0 {
            #expect(result.status == 1)
            #expect(result.stderr.hasPrefix("error: token not valid before 1970-01-01T00:16:45Z"))
        } else {
            #expect(result.status == 0)
        }
    }

    @Test("a non-numeric exp or nbf is rejected", arguments: ["{\"exp\":\"9999999999\"}", "{\"nbf\":true}", "{\"exp\":null}"])
    func nonNumericTimeClaims(claims: String) async throws {
        let dir = try PrivateTemporaryDirectory()
        let key = try await Self.makeKey("HS256", in: dir)
        let token = try await Self.sign(claims, alg: "HS256", key: key)
        let result = try await TokenKitCLI().run(["verify"] + key + [token], environment: .inherited)
        #expect(result.status == 1)
        #expect(result.stderr.contains("NumericDate"))
    }

    @Test("iss and aud are checked when given; aud may be a string or an array")
    func issuerAndAudience() async throws {
        let dir = try PrivateTemporaryDirectory()
        let key = try await Self.makeKey("ES256", in: dir)
        let one = try await Self.sign("{\"iss\":\"https://id.example\",\"aud\":\"api\"}", alg: "ES256", key: key)
        let many = try await Self.sign("{\"iss\":\"https://id.example\",\"aud\":[\"web\",\"api\"]}", alg: "ES256", key: key)
        for token in [one, many] {
            #expect(try await TokenKitCLI().run(["verify"] + key + ["--iss", "https://id.example", "--aud", "api", token], environment: .inherited).status == 0)
            let wrongAud = try await TokenKitCLI().run(["verify"] + key + ["--aud", "admin", token], environment: .inherited)
            #expect(wrongAud.status == 1)
            #expect(wrongAud.stderr.hasPrefix("error: audience mismatch"))
            let wrongIss = try await TokenKitCLI().run(["verify"] + key + ["--iss", "https://evil.example", token], environment: .inherited)
            #expect(wrongIss.status == 1)
            #expect(wrongIss.stderr.contains("issuer"))
        }
    }

    @Test("--require names claims that must be present")
    func requiredClaims() async throws {
        let dir = try PrivateTemporaryDirectory()
        let key = try await Self.makeKey("HS256", in: dir)
        let token = try await Self.sign("{\"sub\":\"a\"}", alg: "HS256", key: key)
        #expect(try await TokenKitCLI().run(["verify"] + key + ["--require", "sub", token], environment: .inherited).status == 0)
        let missing = try await TokenKitCLI().run(["verify"] + key + ["--require", "sub", "--require", "jti", token], environment: .inherited)
        #expect(missing.status == 1)
        #expect(missing.stderr == "error: required claim \"jti\" is missing\n")
    }

    @Test("usage errors exit 64", arguments: [
        ["frobnicate"],
        ["verify", "--bogus", "x"],
        ["verify", "--key", "k", "--secret", "s", "x"],
        ["verify", "x"],
        ["verify", "--key", "k", "--alg", "none", "x"],
        ["verify", "--key", "k", "--alg", "RS999", "x"],
        ["verify", "--key", "k", "--now", "yesterday", "x"],
        ["verify", "--key", "k", "--leeway", "abc", "x"],
        ["sign", "--alg", "HS256", "--key", "k", "--secret", "s", "{}"],
        ["sign", "--alg", "none", "--secret", "s", "{}"],
        ["sign", "--alg", "HS256", "{}"],
        ["sign", "--alg", "HS256", "--secret", "s", "--expires-in", "soon", "{}"],
        ["keygen"],
        ["keygen", "--alg", "XX1"],
    ])
    func usageErrors(args: [String]) async throws {
        let result = try await TokenKitCLI().run(args, environment: .inherited)
        #expect(result.status == 64, "\(args): \(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test("missing, unreadable or unusable keys exit 2")
    func keyErrorsExit2() async throws {
        let dir = try PrivateTemporaryDirectory()
        let garbage = try dir.write("garbage.pem", "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n")
        let short = try dir.write("short.secret", "too short")
        let unreadable = try dir.write("unreadable", "x")
        chmod(unreadable, 0)
        var cases: [[String]] = [
            ["verify", "--key", dir.file("nope"), "a.b.c"],
            ["verify", "--key", garbage, "a.b.c"],
            ["verify", "--secret", short, "a.b.c"],
            ["sign", "--alg", "HS256", "--secret", short, "{}"],
            ["jwk", dir.file("nope")],
            ["verify", "--jwks", "http://example.com/jwks.json", "a.b.c"],
        ]
        // chmod 0 stops everyone but root; CI runs as root, so the case that must run
        // everywhere is a key path nobody can read as a file: a directory.
        let directoryKey = dir.file("key-is-a-directory")
        try FileManager.default.createDirectory(atPath: directoryKey, withIntermediateDirectories: false)
        cases.append(["verify", "--key", directoryKey, "a.b.c"])
        cases.append(["sign", "--alg", "HS256", "--secret", directoryKey, "{}"])
        for args in cases + [["verify", "--key", unreadable, "a.b.c"]] {
            // Root reads a mode-0 file anyway (and CI runs as root): there the unreadable case
            // runs as the unprivileged `nobody`, for whom mode 0 means what it says.
            let unprivileged = args.contains(unreadable) && getuid() == 0
            let result = unprivileged ? try await TokenKitCLI().run(args, environment: .inherited, asUser: 65534) : try await TokenKitCLI().run(args, environment: .inherited)
            #expect(result.status == 2, "\(args): \(result.stderr)")
            #expect(result.stderrLines.count == 1 && result.stderr.hasPrefix("error: "), "\(args): \(result.stderr)")
            if args.contains(unreadable) {
                // The secret-file gate names the OS's reason.
                #expect(result.stderr.contains("cannot read the key file") && result.stderr.contains("Permission denied"), "\(result.stderr)")
            }
        }
    }

    @Test("an HMAC secret never verifies an asymmetric token and a public key never an HS token")
    func algorithmConfusion() async throws {
        let dir = try PrivateTemporaryDirectory()
        let ec = try await Self.makeKey("ES256", in: dir)
        let hs = try await Self.makeKey("HS256", in: dir)
        let ecToken = try await Self.sign("{}", alg: "ES256", key: ec)
        let hsToken = try await Self.sign("{}", alg: "HS256", key: hs)
        #expect(try await TokenKitCLI().run(["verify"] + hs + [ecToken], environment: .inherited).status == 1)
        #expect(try await TokenKitCLI().run(["verify"] + ec + [hsToken], environment: .inherited).status == 1)
        // The classic attack: the public key's PEM bytes used as the HMAC secret.
        let pub = try await TokenKitCLI().run(["jwk", ec[1]], environment: .inherited)
        #expect(pub.status == 0)
        let pemAsSecret = try await TokenKitCLI().run(["sign", "--alg", "HS256", "--secret", ec[1], "{\"admin\":true}"], environment: .inherited)
        #expect(pemAsSecret.status == 0)
        let forged = pemAsSecret.stdoutText.trimmingCharacters(in: .newlines)
        let attack = try await TokenKitCLI().run(["verify", "--key", ec[1], forged], environment: .inherited)
        #expect(attack.status == 1)
        #expect(attack.stdout.isEmpty)
    }

    @Test("tokens on stdin: surrounding whitespace ignored, inner whitespace rejected")
    func stdinWhitespace() async throws {
        let dir = try PrivateTemporaryDirectory()
        let key = try await Self.makeKey("HS256", in: dir)
        let token = try await Self.sign("{\"a\":1}", alg: "HS256", key: key)
        #expect(try await TokenKitCLI().run(["verify"] + key + ["-"], stdin: "  \n\t\(token)\r\n\n", environment: .inherited).status == 0)
        let parts = token.split(separator: ".")
        let spaced = "\(parts[0]). \(parts[1]).\(parts[2])"
        let result = try await TokenKitCLI().run(["verify"] + key + ["-"], stdin: spaced, environment: .inherited)
        #expect(result.status == 1)
        #expect(result.stderr == "error: malformed token: whitespace inside the token\n")
    }

    @Test("verify --jws prints the payload bytes exactly, with no added newline")
    func plainJWSMode() async throws {
        let dir = try PrivateTemporaryDirectory()
        let key = try await Self.makeKey("HS256", in: dir)
        // A JWS whose payload is not JSON: built with the JWK of the secret through sign? No:
        // sign only signs claims, so sign an object and check the exact bytes round-trip.
        let token = try await Self.sign("{\"x\" : [1, 2]}", alg: "HS256", key: key)
        let result = try await TokenKitCLI().run(["verify", "--jws"] + key + [token], environment: .inherited)
        #expect(result.status == 0)
        #expect(result.stdoutText == "{\"x\":[1,2]}")
    }

    @Test("decode prints header and payload without verifying, and warns on stderr")
    func decodeOutput() async throws {
        let token = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJib2IifQ.c2lnbmF0dXJl"
        let result = try await TokenKitCLI().run(["decode", token], environment: .inherited)
        #expect(result.status == 0)
        #expect(result.stdoutText == "{\"header\":{\"alg\":\"HS256\"},\"payload\":{\"sub\":\"bob\"}}\n")
        #expect(result.stderr.hasPrefix("warning:"))
        let malformed = try await TokenKitCLI().run(["decode", "not-a-token"], environment: .inherited)
        #expect(malformed.status == 1)
        #expect(malformed.stderr.hasPrefix("error: malformed token"))
    }

    @Test("duplicate member names are rejected in header and payload")
    func duplicateMembers() async throws {
        let dir = try PrivateTemporaryDirectory()
        let key = try await Self.makeKey("HS256", in: dir)
        let dupPayload = try await TokenKitCLI().run(["sign", "--alg", "HS256"] + key + ["{\"sub\":\"a\",\"sub\":\"b\"}"], environment: .inherited)
        #expect(dupPayload.status != 0)
        #expect(dupPayload.stderr.contains("duplicate member name \"sub\""))
        let header = "eyJhbGciOiJIUzI1NiIsImFsZyI6Im5vbmUifQ"  // {"alg":"HS256","alg":"none"}
        let decoded = try await TokenKitCLI().run(["decode", "\(header).e30.c2ln"], environment: .inherited)
        #expect(decoded.status == 1)
        #expect(decoded.stderr.contains("duplicate member name \"alg\""))
    }

    @Test("a crit header is always rejected")
    func criticalHeader() async throws {
        let dir = try PrivateTemporaryDirectory()
        let secretPath = dir.file("s")
        _ = try await TokenKitCLI().run(["keygen", "--alg", "HS256", "--out", secretPath], environment: .inherited)
        // Hand-build {"alg":"HS256","crit":["exp"],"exp":1} — the signature is irrelevant: crit is checked first.
        let header = "eyJhbGciOiJIUzI1NiIsImNyaXQiOlsiZXhwIl0sImV4cCI6MX0"
        let result = try await TokenKitCLI().run(["verify", "--secret", secretPath, "\(header).e30.AAAA"], environment: .inherited)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("error: unsupported critical header parameter(s): exp"))
    }

    @Test("keygen writes PKCS#8 PEM (0600, never overwriting) and raw HMAC secrets of the hash size")
    func keygenOutputs() async throws {
        let dir = try PrivateTemporaryDirectory()
        let pem = dir.file("ec.pem")
        #expect(try await TokenKitCLI().run(["keygen", "--alg", "ES384", "--out", pem], environment: .inherited).status == 0)
        let text = try String(contentsOfFile: pem, encoding: .utf8)
        #expect(text.hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
        let mode = (try FileManager.default.attributesOfItem(atPath: pem)[.posixPermissions] as? NSNumber)?.intValue
        #expect(mode == 0o600)
        let again = try await TokenKitCLI().run(["keygen", "--alg", "ES384", "--out", pem], environment: .inherited)
        #expect(again.status == 2)
        #expect(try String(contentsOfFile: pem, encoding: .utf8) == text)
        for (alg, size) in [("HS256", 32), ("HS384", 48), ("HS512", 64)] {
            let result = try await TokenKitCLI().run(["keygen", "--alg", alg], environment: .inherited)
            #expect(result.status == 0)
            #expect(result.stdout.count == size)
        }
    }

    @Test("jwk prints the public JWK with kid = RFC 7638 thumbprint; --private adds d")
    func jwkOutput() async throws {
        let dir = try PrivateTemporaryDirectory()
        let key = try await Self.makeKey("EdDSA", in: dir)
        let pub = try await TokenKitCLI().run(["jwk", key[1]], environment: .inherited)
        #expect(pub.status == 0)
        #expect(pub.stdoutText.contains("\"kty\":\"OKP\""))
        #expect(pub.stdoutText.contains("\"kid\":\""))
        #expect(!pub.stdoutText.contains("\"d\":"))
        let priv = try await TokenKitCLI().run(["jwk", key[1], "--private"], environment: .inherited)
        #expect(priv.stdoutText.contains("\"d\":"))
        // The JWK works as a --key for verification, and its kid is stable.
        let jwkPath = try dir.write("pub.jwk", pub.stdoutText)
        let token = try await Self.sign("{}", alg: "EdDSA", key: key)
        #expect(try await TokenKitCLI().run(["verify", "--key", jwkPath, token], environment: .inherited).status == 0)
        #expect(try await TokenKitCLI().run(["jwk", key[1]], environment: .inherited).stdoutText == pub.stdoutText)
    }

    @Test("a JWKS picks the key by kid, never falls back to another key, and tries kid-less tokens by alg")
    func jwksSelection() async throws {
        let dir = try PrivateTemporaryDirectory()
        let a = try await Self.makeKey("ES256", in: dir), b = try await Self.makeKey("RS256", in: dir)
        func publicJWK(_ path: String) async throws -> String { try await TokenKitCLI().run(["jwk", path], environment: .inherited).stdoutText.trimmingCharacters(in: .newlines) }
        let jwkA = try await publicJWK(a[1]), jwkB = try await publicJWK(b[1])
        let jwks = try dir.write("jwks.json", "{\"keys\":[\(jwkA),\(jwkB)]}")
        func kid(_ jwk: String) throws -> String {
            let object = try JSONSerialization.jsonObject(with: Data(jwk.utf8)) as? [String: Any]
            return object?["kid"] as? String ?? ""
        }
        let tokenA = try await Self.sign("{}", alg: "ES256", key: a, extra: ["--kid=" + (try kid(jwkA))])
        let tokenB = try await Self.sign("{}", alg: "RS256", key: b)  // no kid
        #expect(try await TokenKitCLI().run(["verify", "--jwks", jwks, tokenA], environment: .inherited).status == 0)
        #expect(try await TokenKitCLI().run(["verify", "--jwks", jwks, tokenB], environment: .inherited).status == 0)
        // Signed by A but naming B's kid: B is the only candidate, so it fails.
        let wrongKid = try await Self.sign("{}", alg: "ES256", key: a, extra: ["--kid=" + (try kid(jwkB))])
        #expect(try await TokenKitCLI().run(["verify", "--jwks", jwks, wrongKid], environment: .inherited).status == 1)
        let unknownKid = try await Self.sign("{}", alg: "ES256", key: a, extra: ["--kid", "nobody"])
        let result = try await TokenKitCLI().run(["verify", "--jwks", jwks, unknownKid], environment: .inherited)
        #expect(result.status == 1)
        #expect(result.stderr == "error: no key with kid \"nobody\"\n")
    }

    @Test("a single PEM key verifies tokens whatever kid they carry; a JWK with its own kid requires that kid")
    func singleKeyAndKeyIDs() async throws {
        let dir = try PrivateTemporaryDirectory()
        let key = try await Self.makeKey("ES256", in: dir)
        let token = try await Self.sign("{}", alg: "ES256", key: key, extra: ["--kid", "2026-11"])
        #expect(try await TokenKitCLI().run(["verify"] + key + [token], environment: .inherited).status == 0)
        let jwk = try await TokenKitCLI().run(["jwk", key[1]], environment: .inherited).stdoutText  // kid = thumbprint
        let jwkPath = try dir.write("pub.jwk", jwk)
        let mismatch = try await TokenKitCLI().run(["verify", "--key", jwkPath, token], environment: .inherited)
        #expect(mismatch.status == 1)
        #expect(mismatch.stderr == "error: no key with kid \"2026-11\"\n")
    }

    @Test("a public key cannot sign; a private PEM verifies through its public half")
    func keyRoles() async throws {
        let dir = try PrivateTemporaryDirectory()
        let key = try await Self.makeKey("PS256", in: dir)
        let jwk = try await TokenKitCLI().run(["jwk", key[1]], environment: .inherited).stdoutText
        let pubPath = try dir.write("pub.jwk", jwk)
        let result = try await TokenKitCLI().run(["sign", "--alg", "PS256", "--key", pubPath, "{}"], environment: .inherited)
        #expect(result.status == 2)
        #expect(result.stderr.contains("public key"))
        let token = try await Self.sign("{}", alg: "PS256", key: key)
        #expect(try await TokenKitCLI().run(["verify", "--key", pubPath, token], environment: .inherited).status == 0)
    }

    @Test("hostile input never crashes: deep nesting, huge tokens and binary garbage are rejected with exit 1")
    func hostileInput() async throws {
        let dir = try PrivateTemporaryDirectory()
        let key = try await Self.makeKey("HS256", in: dir)
        func b64(_ s: String) async -> String {
            Data(s.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }
        let deep = await b64("{\"alg\":\"HS256\",\"x\":" + String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000) + "}")
        let huge = String(repeating: "A", count: 100_000) + ".e30.AAAA"
        for token in ["\(deep).e30.AAAA", huge, "...", "a.b", "a.b.c.d.e", "\u{1F600}.e30.AAAA"] {
            let result = try await TokenKitCLI().run(["verify"] + key + ["-"], stdin: token, environment: .inherited)
            #expect(result.status == 1, "\(token.prefix(40)): \(result.stderr)")
            #expect(result.stderrLines.count == 1)
        }
        let binary = try await TokenKitCLI().run(["verify"] + key + ["-"], stdin: [0xFF, 0xFE, 0x00, 0x2E, 0x2E], environment: .inherited)
        #expect(binary.status == 1)
    }
}
