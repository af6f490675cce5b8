import Foundation
import Testing
import TokenKitTestSupport

/// Pins the `tokenkit encrypt` / `tokenkit decrypt` contract of issue 28: flags, stdout (one
/// JWE and a newline; exactly the plaintext bytes), one stderr line, exit codes 0/1/2/64.
/// Keys come from `openssl` (a prerequisite) and are thrown away with the test's directory.
@Suite("tokenkit encrypt / decrypt contract")
struct JWECLIContractTests {
    /// (alg, the key type openssl makes for it, or the secret length).
    static let algorithms: [(alg: String, key: String)] = [
        ("RSA-OAEP", "rsa"), ("RSA-OAEP-256", "rsa"), ("ECDH-ES", "P-256"), ("ECDH-ES", "X25519"), ("ECDH-ES+A128KW", "P-384"),
        ("ECDH-ES+A192KW", "P-521"), ("ECDH-ES+A256KW", "X25519"), ("A128KW", "16"), ("A192KW", "24"), ("A256KW", "32"), ("dir", "32"),
    ]

    /// A key pair (private, public) made by openssl, or a secret file of `kind` bytes (both
    /// paths the same), with mode 0600.
    static func makeKey(_ kind: String, in dir: PrivateTemporaryDirectory, name: String = UUID().uuidString) async throws -> (private: String, public: String) {
        if let count = Int(kind) {
            let path = try dir.write("\(name).secret", bytes: (0..<count).map { _ in UInt8.random(in: 0...255) })
            chmod(path, 0o600)
            return (path, path)
        }
        let privatePath = dir.file("\(name).pem"), publicPath = dir.file("\(name).pub.pem")
        let generate: [String]
        switch kind {
        case "rsa": generate = ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"]
        case "X25519": generate = ["genpkey", "-algorithm", "X25519"]
        default: generate = ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:\(kind)"]
        }
        try await openssl(generate + ["-out", privatePath])
        chmod(privatePath, 0o600)
        try await openssl(["pkey", "-in", privatePath, "-pubout", "-out", publicPath])
        return (privatePath, publicPath)
    }

    @discardableResult
    static func openssl(_ arguments: [String], stdin: [UInt8] = []) async throws -> String {
        let outcome = try await ChildProcess("/usr/bin/env", ["openssl"] + arguments, stdin: .bytes(stdin)).run(timeout: .seconds(60))
        #expect(outcome.status == 0, "openssl \(arguments): \(outcome.stderrText)")
        return String(decoding: outcome.stdout, as: UTF8.self)
    }

    static func encrypt(_ args: [String], payload: String = "payload") async throws -> String {
        let result = try await TokenKitCLI().run(["encrypt"] + args + [payload], environment: .inherited)
        #expect(result.status == 0, "encrypt \(args): \(result.stderr)")
        return result.stdoutText
    }

    static func b64url(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func unb64url(_ text: some StringProtocol) -> [UInt8] {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Array(Data(base64Encoded: base64) ?? Data())
    }

    /// `token`'s parts, with part `index` changed by `change`.
    static func altering(_ token: String, part index: Int, _ change: (inout [UInt8]) -> Void) -> String {
        var parts = token.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var bytes = unb64url(parts[index])
        change(&bytes)
        parts[index] = b64url(bytes)
        return parts.joined(separator: ".")
    }

    /// A five-part token with `header` (JSON text) and dummy parts: for refusals decided by
    /// the header alone.
    static func headerOnlyToken(_ header: String) -> String {
        [b64url(Array(header.utf8)), b64url([1, 2, 3, 4]), b64url([UInt8](repeating: 0, count: 12)), b64url([9, 9]), b64url([UInt8](repeating: 7, count: 16))]
            .joined(separator: ".")
    }

    @Test("encrypt prints one JWE and a newline; decrypt prints exactly the plaintext, from the argument or stdin",
          arguments: algorithms.map { "\($0.alg) \($0.key)" })
    func roundTrip(pair: String) async throws {
        let (alg, kind) = (String(pair.split(separator: " ")[0]), String(pair.split(separator: " ")[1]))
        let dir = try PrivateTemporaryDirectory()
        let key = try await Self.makeKey(kind, in: dir)
        let encs = alg == "dir" ? ["A128CBC-HS256", "A256GCM"] : ["A256GCM", "A192CBC-HS384", "A128GCM"]
        for enc in encs {
            let payload = "café \(alg) \(enc)"
            let result = try await TokenKitCLI().run(["encrypt", "--key", key.public, "--alg", alg, "--enc", enc, "--kid", "k-1", "--cty", "text/plain", payload], environment: .inherited)
            #expect(result.status == 0, "\(alg) \(enc): \(result.stderr)")
            #expect(result.stderr.isEmpty)
            #expect(result.stdoutText.hasSuffix("\n") && result.stdoutText.filter { $0 == "\n" }.count == 1)
            #expect(result.stdoutText.filter { $0 == "." }.count == 4)
            let fromArgument = try await TokenKitCLI().run(["decrypt", "--key", key.private, result.stdoutText], environment: .inherited)
            #expect(fromArgument.status == 0, "\(alg) \(enc): \(fromArgument.stderr)")
            #expect(fromArgument.stdout == Array(payload.utf8), "no newline added, nothing else")
            let fromStdin = try await TokenKitCLI().run(["decrypt", "--key", key.private, "-"], stdin: result.stdout, environment: .inherited)
            #expect(fromStdin.stdout == Array(payload.utf8))
            let header = Self.unb64url(result.stdoutText.split(separator: ".")[0])
            #expect(String(decoding: header, as: UTF8.self).contains(#""kid":"k-1","cty":"text\/plain""#)
                || String(decoding: header, as: UTF8.self).contains(#""kid":"k-1","cty":"text/plain""#))
        }
    }

    @Test("the default enc is A256GCM; the payload may come from stdin as raw bytes; every JWE is fresh")
    func defaultsAndStdin() async throws {
        let dir = try PrivateTemporaryDirectory()
        let key = try await Self.makeKey("P-256", in: dir)
        let bytes: [UInt8] = [0, 1, 2, 0xFF, 0x0A, 0x0D]
        let first = try await TokenKitCLI().run(["encrypt", "--key", key.public, "--alg", "ECDH-ES"], stdin: bytes, environment: .inherited)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(String(decoding: Self.unb64url(first.stdoutText.split(separator: ".")[0]), as: UTF8.self).contains(#""enc":"A256GCM""#))
        #expect(try await TokenKitCLI().run(["decrypt", "--key", key.private, first.stdoutText], environment: .inherited).stdout == bytes)
        let second = try await TokenKitCLI().run(["encrypt", "--key", key.public, "--alg", "ECDH-ES", "-"], stdin: bytes, environment: .inherited)
        #expect(first.stdout != second.stdout)
    }

    @Test("algorithms and encryptions outside the lists are usage errors (64)", arguments: [
        ["--alg", "RSA1_5"], ["--alg", "PBES2-HS256+A128KW"], ["--alg", "PBES2-HS512+A256KW"], ["--alg", "A256GCMKW"],
        ["--alg", "HS256"], ["--alg", "none"], ["--alg", "dir", "--enc", "A128CTR"], ["--alg", "dir", "--enc", "none"],
    ])
    func usageErrors(args: [String]) async throws {
        let dir = try PrivateTemporaryDirectory()
        let key = try await Self.makeKey("32", in: dir)
        let result = try await TokenKitCLI().run(["encrypt", "--key", key.public] + args + ["x"], environment: .inherited)
        #expect(result.status == 64, "\(args): \(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(try await TokenKitCLI().run(["encrypt", "--alg", "dir", "x"], environment: .inherited).status == 64)
        #expect(try await TokenKitCLI().run(["encrypt", "--key", key.public, "x"], environment: .inherited).status == 64)
        #expect(try await TokenKitCLI().run(["decrypt", "a.b.c.d.e"], environment: .inherited).status == 64)
    }

    @Test("encrypt exits 2 for an unusable key, a key that does not fit the alg, a private key, or a readable secret")
    func encryptKeyErrors() async throws {
        let dir = try PrivateTemporaryDirectory()
        let ec = try await Self.makeKey("P-256", in: dir)
        let rsa = try await Self.makeKey("rsa", in: dir)
        let garbage = try dir.write("garbage.pem", "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n")
        let short = try await Self.makeKey("17", in: dir).private
        let thirtyTwo = try await Self.makeKey("32", in: dir).private
        let readable = try await Self.makeKey("32", in: dir).private
        chmod(readable, 0o644)
        let cases: [[String]] = [
            ["--key", garbage, "--alg", "RSA-OAEP"],
            ["--key", dir.file("missing"), "--alg", "RSA-OAEP"],
            ["--key", ec.public, "--alg", "RSA-OAEP-256"],
            ["--key", rsa.public, "--alg", "ECDH-ES"],
            ["--key", short, "--alg", "A128KW"],
            ["--key", thirtyTwo, "--alg", "A128KW"],
            ["--key", thirtyTwo, "--alg", "dir", "--enc", "A128GCM"],
            ["--key", ec.private, "--alg", "ECDH-ES"],
            ["--key", readable, "--alg", "A256KW"],
        ]
        for args in cases {
            let result = try await TokenKitCLI().run(["encrypt"] + args + ["x"], environment: .inherited)
            #expect(result.status == 2, "\(args): \(result.stderr)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderrLines.count == 1 && result.stderr.hasPrefix("error: "), "\(args)")
        }
    }

    @Test("decrypt exits 2 for a private key or secret readable by others, and for an unusable key")
    func decryptKeyErrors() async throws {
        let dir = try PrivateTemporaryDirectory()
        let ec = try await Self.makeKey("P-256", in: dir)
        let token = try await Self.encrypt(["--key", ec.public, "--alg", "ECDH-ES"])
        chmod(ec.private, 0o640)
        let secret = try await Self.makeKey("32", in: dir)
        let kwToken = try await Self.encrypt(["--key", secret.public, "--alg", "A256KW"])
        chmod(secret.private, 0o604)
        let garbage = try dir.write("garbage.pem", "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n")
        chmod(garbage, 0o600)
        for (key, token) in [(ec.private, token), (secret.private, kwToken), (garbage, token), (ec.public, token)] {
            if key == ec.public { chmod(key, 0o600) }
            let result = try await TokenKitCLI().run(["decrypt", "--key", key, token], environment: .inherited)
            #expect(result.status == 2, "\(key): \(result.stderr)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderrLines.count == 1 && result.stderr.hasPrefix("error: "))
        }
    }

    @Test("every refusal exits 1 with one stderr line and nothing on stdout")
    func refusals() async throws {
        let dir = try PrivateTemporaryDirectory()
        let ec = try await Self.makeKey("P-256", in: dir)
        let rsa = try await Self.makeKey("rsa", in: dir)
        let dirKey = try await Self.makeKey("32", in: dir)
        let ecToken = try await Self.encrypt(["--key", ec.public, "--alg", "ECDH-ES+A128KW"])
        let gcmToken = try await Self.encrypt(["--key", dirKey.public, "--alg", "dir", "--enc", "A256GCM"])
        let cbcToken = try await Self.encrypt(["--key", dirKey.public, "--alg", "dir", "--enc", "A128CBC-HS256"])
        let jws = try await TokenKitCLI().run(["sign", "--alg", "ES256", "--key", ec.private, "{}"], environment: .inherited).stdoutText
        let offCurve = Self.altering(ecToken, part: 0) { header in
            var object = (try? JSONSerialization.jsonObject(with: Data(header))) as? [String: Any] ?? [:]
            var epk = object["epk"] as? [String: Any] ?? [:]
            var y = Self.unb64url(epk["y"] as? String ?? "")
            y[y.count - 1] ^= 1
            epk["y"] = Self.b64url(y)
            object["epk"] = epk
            header = Array((try? JSONSerialization.data(withJSONObject: object)) ?? Data())
        }
        let oversize = gcmToken.trimmingCharacters(in: .newlines).replacingOccurrences(of: ".", with: "." + String(repeating: "A", count: 262_200))
        let cases: [(String, String, String)] = [
            ("RSA1_5", rsa.private, Self.headerOnlyToken(#"{"alg":"RSA1_5","enc":"A128CBC-HS256"}"#)),
            ("PBES2", dirKey.private, Self.headerOnlyToken(#"{"alg":"PBES2-HS256+A128KW","enc":"A128GCM","p2c":100000000,"p2s":"AAAAAAAAAAA"}"#)),
            ("zip", dirKey.private, Self.headerOnlyToken(#"{"alg":"dir","enc":"A256GCM","zip":"DEF"}"#)),
            ("crit", dirKey.private, Self.headerOnlyToken(#"{"alg":"dir","enc":"A256GCM","crit":["x"],"x":1}"#)),
            ("alg none", dirKey.private, Self.headerOnlyToken(#"{"alg":"none","enc":"A256GCM"}"#)),
            ("a JWS", ec.private, jws),
            ("epk off curve", ec.private, offCurve),
            ("key/alg mismatch", rsa.private, ecToken),
            ("GCM tag of 12 bytes", dirKey.private, Self.altering(gcmToken, part: 4) { $0.removeLast(4) }),
            ("truncated CBC-HS tag", dirKey.private, Self.altering(cbcToken, part: 4) { $0.removeLast(1) }),
            ("token over 1 MiB", dirKey.private, oversize),
        ]
        for (label, key, token) in cases {
            let result = try await TokenKitCLI().run(["decrypt", "--key", key, "-"], stdin: Array(token.utf8), environment: .inherited)
            #expect(result.status == 1, "\(label): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(label)")
            #expect(result.stderrLines.count == 1 && result.stderr.hasPrefix("error: "), "\(label): \(result.stderr)")
        }
    }

    @Test("wrong key, bad tag, altered ciphertext and bad padding print the same one line, exit 1")
    func oneErrorLine() async throws {
        let dir = try PrivateTemporaryDirectory()
        let ec = try await Self.makeKey("P-256", in: dir), otherEC = try await Self.makeKey("P-256", in: dir)
        let rsa = try await Self.makeKey("rsa", in: dir), otherRSA = try await Self.makeKey("rsa", in: dir)
        let kw = try await Self.makeKey("16", in: dir), otherKW = try await Self.makeKey("16", in: dir)
        let dirKey = try await Self.makeKey("32", in: dir)
        let ecToken = try await Self.encrypt(["--key", ec.public, "--alg", "ECDH-ES", "--enc", "A128CBC-HS256"])
        let rsaToken = try await Self.encrypt(["--key", rsa.public, "--alg", "RSA-OAEP-256"])
        let kwToken = try await Self.encrypt(["--key", kw.public, "--alg", "A128KW"])
        let cases: [(String, String, String)] = [
            ("wrong EC key", otherEC.private, ecToken),
            ("wrong RSA key (failed unwrap)", otherRSA.private, rsaToken),
            ("wrong AES key (failed unwrap)", otherKW.private, kwToken),
            ("bad tag", ec.private, Self.altering(ecToken, part: 4) { $0[0] ^= 1 }),
            ("altered ciphertext", rsa.private, Self.altering(rsaToken, part: 3) { $0[0] ^= 1 }),
            ("altered encrypted key", kw.private, Self.altering(kwToken, part: 1) { $0[3] ^= 1 }),
            ("bad padding behind a valid tag", dirKey.private, try await Self.badPaddingToken(key: dirKey.private, in: dir)),
        ]
        var lines: Set<String> = []
        for (label, key, token) in cases {
            let result = try await TokenKitCLI().run(["decrypt", "--key", key, token], environment: .inherited)
            #expect(result.status == 1, "\(label): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(label)")
            #expect(result.stderrLines.count == 1, "\(label)")
            lines.insert(result.stderr)
        }
        #expect(lines == ["error: decryption failed\n"], "\(lines)")
    }

    /// A dir A128CBC-HS256 JWE under the 32-byte secret in `key` whose tag is valid but whose
    /// padding is not: a 15-byte plaintext (padded with one 0x01) with the IV's last bit
    /// flipped (so the padding byte decrypts to 0x00), the tag recomputed with `openssl mac`.
    static func badPaddingToken(key: String, in dir: PrivateTemporaryDirectory) async throws -> String {
        let token = try await encrypt(["--key", key, "--alg", "dir", "--enc", "A128CBC-HS256"], payload: "fifteen bytes!!")
        var parts = token.trimmingCharacters(in: .newlines).split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var iv = unb64url(parts[2])
        iv[15] ^= 0x01
        parts[2] = b64url(iv)
        let aad = Array(parts[0].utf8)
        let al = (0..<8).map { UInt8(truncatingIfNeeded: UInt64(aad.count * 8) >> (56 - 8 * $0)) }
        let macInput = try dir.write("mac-input", bytes: aad + iv + unb64url(parts[3]) + al)
        let macKey = Array(try Data(contentsOf: URL(fileURLWithPath: key))).prefix(16).map { String(format: "%02x", $0) }.joined()
        let hex = try await openssl(["mac", "-digest", "SHA256", "-macopt", "hexkey:\(macKey)", "-in", macInput, "HMAC"])
            .trimmingCharacters(in: .whitespacesAndNewlines)
        var mac: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex, let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex), let byte = UInt8(hex[index..<next], radix: 16) {
            mac.append(byte)
            index = next
        }
        parts[4] = b64url(Array(mac.prefix(16)))
        return parts.joined(separator: ".")
    }

    @Test("tokens up to 1 MiB are accepted; surrounding whitespace is ignored")
    func largeTokenAndWhitespace() async throws {
        let dir = try PrivateTemporaryDirectory()
        let key = try await Self.makeKey("32", in: dir)
        let payload = String(repeating: "z", count: 700_000)
        let result = try await TokenKitCLI().run(["encrypt", "--key", key.public, "--alg", "dir", "-"], stdin: Array(payload.utf8), environment: .inherited)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.count > 900_000 && result.stdout.count <= 1024 * 1024 + 1)
        let decrypted = try await TokenKitCLI().run(["decrypt", "--key", key.private], stdin: Array("  \n".utf8) + result.stdout + Array("\n\n".utf8), environment: .inherited)
        #expect(decrypted.status == 0, "\(decrypted.stderr)")
        #expect(decrypted.stdout.count == 700_000)
        let tooBig = try await TokenKitCLI().run(["encrypt", "--key", key.public, "--alg", "dir", "-"], stdin: [UInt8](repeating: 0x7A, count: 800_000), environment: .inherited)
        #expect(tooBig.status == 1 && tooBig.stdout.isEmpty, "\(tooBig.stderr)")
    }

    @Test("a nested JWT: decrypt's output piped to verify --key SIGPUB - verifies the inner JWT")
    func nestedPipe() async throws {
        let dir = try PrivateTemporaryDirectory()
        let signing = try await Self.makeKey("P-256", in: dir)
        let recipient = try await Self.makeKey("X25519", in: dir)
        let signed = try await TokenKitCLI().run(["sign", "--alg", "ES256", "--key", signing.private, "--expires-in", "1h", #"{"sub":"nested"}"#], environment: .inherited)
        #expect(signed.status == 0, "\(signed.stderr)")
        let encrypted = try await TokenKitCLI().run(["encrypt", "--key", recipient.public, "--alg", "ECDH-ES+A256KW", "--cty", "JWT", "-"], stdin: signed.stdout, environment: .inherited)
        #expect(encrypted.status == 0, "\(encrypted.stderr)")
        let decrypted = try await TokenKitCLI().run(["decrypt", "--key", recipient.private, encrypted.stdoutText], environment: .inherited)
        #expect(decrypted.status == 0)
        let verified = try await TokenKitCLI().run(["verify", "--key", signing.public, "-"], stdin: decrypted.stdout, environment: .inherited)
        #expect(verified.status == 0, "\(verified.stderr)")
        #expect(verified.stdoutText.contains(#""sub":"nested""#))
    }
}
