import Foundation
import Testing
import TokenKitTestSupport

/// The one secret-file admission check, from the release binary's side (issue 23 item 7,
/// issue 24 item 6): every option that reads a private key, an HMAC secret, a passphrase, a
/// client secret or a database password accepts a 0600 file and refuses 0640 and 0604 (exit
/// 2, one error line naming the file, its mode and `chmod 600`); public keys may be 0644.
@Suite("tokenkit: secret files other users may read are refused, on every option")
struct SecretFileAdmissionCLITests {
    /// Keys, secrets and tokens made once per test, in a private directory.
    struct Material {
        let dir: PrivateTemporaryDirectory
        let privatePEM: String
        let privateJWK: String
        let publicJWK: String
        let publicPEM: String
        let hmacSecret: String
        let ecToken: String
        let hsToken: String

        init() async throws {
            dir = try PrivateTemporaryDirectory()
            let pem = dir.file("source.pem")
            try #require(try await TokenKitCLI().run(["keygen", "--alg", "ES256", "--out", pem], environment: .inherited).status == 0)
            privatePEM = try String(contentsOfFile: pem, encoding: .utf8)
            privateJWK = try await TokenKitCLI().run(["jwk", "--private", pem], environment: .inherited).stdoutText
            publicJWK = try await TokenKitCLI().run(["jwk", pem], environment: .inherited).stdoutText
            publicPEM = try Self.spkiPEM(fromJWK: publicJWK)
            hmacSecret = String(repeating: "k", count: 32)
            let hs = try dir.write("source.hs", hmacSecret)
            ecToken = try await TokenKitCLI().run(["sign", "--alg", "ES256", "--key", pem, #"{"sub":"ec"}"#], environment: .inherited).stdoutText.trimmingCharacters(in: .newlines)
            hsToken = try await TokenKitCLI().run(["sign", "--alg", "HS256", "--secret", hs, #"{"sub":"hs"}"#], environment: .inherited).stdoutText.trimmingCharacters(in: .newlines)
            try #require(ecToken.split(separator: ".").count == 3 && hsToken.split(separator: ".").count == 3)
        }

        /// The SPKI PEM of a public P-256 JWK (the fixed DER prefix, then 04 || x || y).
        static func spkiPEM(fromJWK jwk: String) throws -> String {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(jwk.utf8)) as? [String: Any])
            func coordinate(_ name: String) throws -> Data {
                var text = try #require(object[name] as? String).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
                text += String(repeating: "=", count: (4 - text.count % 4) % 4)
                return try #require(Data(base64Encoded: text))
            }
            var der = Data([0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01, 0x06, 0x08, 0x2A, 0x86, 0x48,
                            0xCE, 0x3D, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00, 0x04])
            der += try coordinate("x") + coordinate("y")
            return "-----BEGIN PUBLIC KEY-----\n\(der.base64EncodedString(options: .lineLength64Characters))\n-----END PUBLIC KEY-----\n"
        }

        /// A JWKS holding `jwk`.
        func jwks(_ jwk: String) -> String { #"{"keys":[\#(jwk.trimmingCharacters(in: .newlines))]}"# }
    }

    /// One option that reads a secret file: what the file holds, and the command line that
    /// reads it from `path` (with the `Material` it needs).
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let contents: @Sendable (Material) -> String
        let arguments: @Sendable (_ path: String, _ material: Material) -> [String]
        let stdin: @Sendable (Material) -> String
        /// How an accepted file ends: exit 0, or a later failure that is not the file's.
        let acceptedStatus: Int32
        var testDescription: String { name }
    }

    /// A private `--passphrase-file` for the cases that open a store.
    static func passphrase(_ material: Material) -> String {
        (try? material.dir.write("passphrase", "correct horse\n")) ?? ""
    }

    /// The store arguments of the cases that need one (file backend, cheap scrypt).
    static func fileStore(_ material: Material) -> [String] {
        ["--backend", "file", "--file", material.dir.file("store.tkstore"), "--passphrase-file", passphrase(material), "--scrypt-log-n", "4"]
    }

    /// A token endpoint nobody listens on: an accepted client credential fails there (exit 2).
    static let closedEndpoint = "http://127.0.0.1:9/token"

    static let cases: [Case] = [
        Case(name: "sign --key (PEM private key)", contents: \.privatePEM,
             arguments: { path, _ in ["sign", "--alg", "ES256", "--key", path, "{}"] }, stdin: { _ in "" }, acceptedStatus: 0),
        Case(name: "sign --key (private JWK)", contents: \.privateJWK,
             arguments: { path, _ in ["sign", "--alg", "ES256", "--key", path, "{}"] }, stdin: { _ in "" }, acceptedStatus: 0),
        Case(name: "sign --secret", contents: \.hmacSecret,
             arguments: { path, _ in ["sign", "--alg", "HS256", "--secret", path, "{}"] }, stdin: { _ in "" }, acceptedStatus: 0),
        Case(name: "verify --key (PEM private key)", contents: \.privatePEM,
             arguments: { ["verify", "--key", $0, $1.ecToken] }, stdin: { _ in "" }, acceptedStatus: 0),
        Case(name: "verify --key (private JWK)", contents: \.privateJWK,
             arguments: { ["verify", "--key", $0, $1.ecToken] }, stdin: { _ in "" }, acceptedStatus: 0),
        Case(name: "verify --secret", contents: \.hmacSecret,
             arguments: { ["verify", "--secret", $0, $1.hsToken] }, stdin: { _ in "" }, acceptedStatus: 0),
        Case(name: "verify --jwks FILE (private JWKS)", contents: { $0.jwks($0.privateJWK) },
             arguments: { ["verify", "--jwks", $0, $1.ecToken] }, stdin: { _ in "" }, acceptedStatus: 0),
        Case(name: "verify --key (oct JWK)", contents: { _ in #"{"kty":"oct","k":"a2tra2tra2tra2tra2tra2tra2tra2tra2tra2tra2s"}"# },
             arguments: { ["verify", "--key", $0, $1.hsToken] }, stdin: { _ in "" }, acceptedStatus: 0),
        Case(name: "audit --key (PEM private key)", contents: \.privatePEM,
             arguments: { path, _ in ["audit", "--json", "--fail-on", "bad-signature", "--key", path] }, stdin: \.ecToken, acceptedStatus: 0),
        Case(name: "audit --secret", contents: \.hmacSecret,
             arguments: { path, _ in ["audit", "--json", "--fail-on", "bad-signature", "--secret", path] }, stdin: \.hsToken, acceptedStatus: 0),
        Case(name: "audit --jwks FILE (private JWKS)", contents: { $0.jwks($0.privateJWK) },
             arguments: { path, _ in ["audit", "--json", "--fail-on", "bad-signature", "--jwks", path] }, stdin: \.ecToken, acceptedStatus: 0),
        Case(name: "jwk PATH (PEM private key)", contents: \.privatePEM,
             arguments: { path, _ in ["jwk", path] }, stdin: { _ in "" }, acceptedStatus: 0),
        Case(name: "store --passphrase-file", contents: { _ in "correct horse\n" },
             arguments: { path, material in
                 ["store", "list", "--service", "svc", "--backend", "file", "--file", material.dir.file("store.tkstore"),
                  "--passphrase-file", path, "--scrypt-log-n", "4"]
             }, stdin: { _ in "" }, acceptedStatus: 0),
        Case(name: "token --client-secret-file", contents: { _ in "client-secret\n" },
             arguments: { path, material in
                 ["token", "--grant", "client-credentials", "--service", "svc", "--account", "acct", "--token-endpoint", closedEndpoint,
                  "--client-id", "cid", "--client-secret-file", path] + fileStore(material)
             }, stdin: { _ in "" }, acceptedStatus: 2),
        Case(name: "token --client-key", contents: \.privatePEM,
             arguments: { path, material in
                 ["token", "--grant", "client-credentials", "--service", "svc", "--account", "acct", "--token-endpoint", closedEndpoint,
                  "--client-id", "cid", "--client-key", path] + fileStore(material)
             }, stdin: { _ in "" }, acceptedStatus: 2),
        Case(name: "login --client-key", contents: \.privatePEM,
             arguments: { path, material in
                 ["login", "--device", "--service", "svc", "--account", "acct", "--authorization-endpoint", "http://127.0.0.1:9/authorize",
                  "--token-endpoint", closedEndpoint, "--device-authorization-endpoint", "http://127.0.0.1:9/device", "--client-id", "cid",
                  "--client-key", path, "--timeout", "10"] + fileStore(material)
             }, stdin: { _ in "" }, acceptedStatus: 2),
        Case(name: "store --database-password-file", contents: { _ in "db-password\n" },
             arguments: { path, material in
                 ["store", "list", "--service", "svc", "--backend", "postgres", "--database-url", "postgres://tokenkit@127.0.0.1:9/tokenkit",
                  "--database-password-file", path, "--passphrase-file", passphrase(material), "--scrypt-log-n", "4"]
             }, stdin: { _ in "" }, acceptedStatus: 2),
    ]

    @Test("a 0600 file is accepted; 0640 and 0604 are refused: exit 2, one error line naming the file, its mode and chmod 600",
          arguments: cases, [0o600, 0o640, 0o604])
    func admission(_ option: Case, mode: Int) async throws {
        let material = try await Material()
        let path = try material.dir.write("secret-file", option.contents(material), mode: mode)
        let result = try await TokenKitCLI().run(option.arguments(path, material), stdin: Array(option.stdin(material).utf8), environment: .inherited)
        let shown = "0" + String(mode, radix: 8)
        if mode == 0o600 {
            #expect(result.status == option.acceptedStatus, "exit \(result.status): \(result.stderr)")
            #expect(!result.stderr.contains("chmod 600") && !result.stderr.contains("has mode"), "\(result.stderr)")
        } else {
            #expect(result.status == 2, "exit \(result.status): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(result.stdoutText)")
            #expect(result.stderrLines.count == 1 && result.stderr.hasPrefix("error: the "), "\(result.stderr)")
            #expect(result.stderr.contains("\(path) has mode \(shown): it must not be readable by other users (run: chmod 600 \(path))"),
                    "\(result.stderr)")
        }
    }

    @Test("public keys, public JWKs and public JWKS files may be world-readable (0644)")
    func publicKeysExempt() async throws {
        let material = try await Material()
        let pem = try material.dir.write("public.pem", material.publicPEM, mode: 0o644)
        let jwk = try material.dir.write("public.jwk", material.publicJWK, mode: 0o644)
        let jwks = try material.dir.write("public.jwks", material.jwks(material.publicJWK), mode: 0o644)
        for args in [["verify", "--key", pem, material.ecToken], ["verify", "--key", jwk, material.ecToken],
                     ["verify", "--jwks", jwks, material.ecToken], ["jwk", pem]] {
            let result = try await TokenKitCLI().run(args, environment: .inherited)
            #expect(result.status == 0, "\(args[0]) \(args[1]): \(result.stderr)")
        }
        for (option, path) in [("--key", pem), ("--jwks", jwks)] {
            // Exit 0 with --fail-on bad-signature: the signature was checked with the key, and held.
            let audit = try await TokenKitCLI().run(["audit", "--json", "--fail-on", "bad-signature", option, path], stdin: Array(material.ecToken.utf8), environment: .inherited)
            #expect(audit.status == 0 && audit.stdoutText.contains(#""status":"no-expiry""#), "audit \(option): \(audit.stderr)")
        }
        // A public key cannot sign: refused for what it is, not for its mode.
        let sign = try await TokenKitCLI().run(["sign", "--alg", "ES256", "--key", pem, "{}"], environment: .inherited)
        #expect(sign.status == 2 && sign.stderr.contains("holds a public key") && !sign.stderr.contains("chmod"), "\(sign.stderr)")
    }

    @Test("a PEM bundle with a certificate first and a private key after it is a secret file")
    func privateKeyAfterPublicBlock() async throws {
        let material = try await Material()
        let bundle = try material.dir.write("bundle.pem", material.publicPEM + material.privatePEM, mode: 0o644)
        let result = try await TokenKitCLI().run(["verify", "--key", bundle, material.ecToken], environment: .inherited)
        #expect(result.status == 2 && result.stderr.contains("has mode 0644"), "\(result.stderr)")
    }
}
