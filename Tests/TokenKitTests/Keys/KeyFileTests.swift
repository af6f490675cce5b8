import Foundation
import Testing
import TokenKit
import TokenKitTestSupport

/// `KeyFile` is the one place that decides what a key file holds: every format loads as its
/// own initialiser loads it, verification gets public halves, and hostile, empty, oversized
/// or non-text input is refused with an `invalidKey`/`tooLarge` error, never a crash.
@Suite("Keys: key files (PEM, JWK, JWKS) detected and loaded by the library")
struct KeyFileTests {
    /// `openssl ecparam -name prime256v1 -genkey` output (parameters block, then the key);
    /// generated for this test, it protects nothing.
    static let ecParametersAndKey = """
-----BEGIN EC PARAMETERS-----
BggqhkjOPQMBBw==
-----END EC PARAMETERS-----
-----BEGIN EC PRIVATE KEY-----
MHcCAQEEIDGErnaAhoUljzCm1Aub9PwSOuGqvZ539CUnyIFO3WIXoAoGCCqGSM49
AwEHoUQDQgAERKjxk3qHqUTffRwyoOWf3aF9ikMUWmmqoZPEUmFx8zMo/ttMBLN/
g4+73+bcAcEX2oPhG2yG6gBpImAk0EnZYg==
-----END EC PRIVATE KEY-----
"""
    /// A self-signed certificate for the key above (`openssl req -x509`).
    static let certificate = """
-----BEGIN CERTIFICATE-----
MIIBgjCCASmgAwIBAgIUXA1c7azgbCS2gmgoau4DBzMfMPUwCgYIKoZIzj0EAwIw
FzEVMBMGA1UEAwwMa2V5ZmlsZS10ZXN0MB4XDTI2MTEyNTIxMjMzNVoXDTM2MTEy
MjIxMjMzNVowFzEVMBMGA1UEAwwMa2V5ZmlsZS10ZXN0MFkwEwYHKoZIzj0CAQYI
KoZIzj0DAQcDQgAERKjxk3qHqUTffRwyoOWf3aF9ikMUWmmqoZPEUmFx8zMo/ttM
BLN/g4+73+bcAcEX2oPhG2yG6gBpImAk0EnZYqNTMFEwHQYDVR0OBBYEFGD+kAA2
mbfiuMKCc8emPfydbJeBMB8GA1UdIwQYMBaAFGD+kAA2mbfiuMKCc8emPfydbJeB
MA8GA1UdEwEB/wQFMAMBAf8wCgYIKoZIzj0EAwIDRwAwRAIgG7Y9Rgk3C+CnboVe
BYMNaNgiRsIvnNi+QnvthSndXp0CIE9RjAeeN3spyUN7RF0wWglJh9bYZe+bwZT0
hAaFdmq7
-----END CERTIFICATE-----
"""
    /// The SPKI PEM of the key above (`openssl ec -pubout`).
    static let publicKey = """
-----BEGIN PUBLIC KEY-----
MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAERKjxk3qHqUTffRwyoOWf3aF9ikMU
WmmqoZPEUmFx8zMo/ttMBLN/g4+73+bcAcEX2oPhG2yG6gBpImAk0EnZYg==
-----END PUBLIC KEY-----

"""

    private static func load(_ text: String, for purpose: KeyFile.Purpose) throws -> KeyFile {
        try KeyFile(contents: Array(text.utf8), for: purpose)
    }

    @Test("A private PEM key is kept for signing and reduced to its public half for verification")
    func privatePEM() throws {
        let generated = try JWTKey.generate(for: .es256)
        let pem = try generated.privateKeyPEM()
        let signing = try Self.load(pem, for: .signing)
        #expect(signing.format == .pem)
        #expect(signing.keySet.keys.count == 1)
        #expect(signing.keySet.keys.first?.canSign == true)
        let verification = try Self.load(pem, for: .verification)
        let key = try #require(verification.keySet.keys.first)
        #expect(!key.canSign)
        #expect(try key.publicKeyPEM() == generated.publicKeyPEM())
    }

    @Test("SPKI and certificate PEM load the same public key; surrounding whitespace is ignored")
    func publicPEMAndCertificate() throws {
        let spki = try #require(try Self.load("\n\t  " + Self.publicKey + "  \r\n", for: .verification).keySet.keys.first)
        let fromCertificate = try #require(try Self.load(Self.certificate, for: .verification).keySet.keys.first)
        #expect(try spki.publicKeyPEM() == fromCertificate.publicKeyPEM())
        #expect(!fromCertificate.canSign)
    }

    @Test("Mixed PEM: EC PARAMETERS before the key are skipped; otherwise the first block is the key")
    func mixedPEMBlocks() throws {
        let parametersFirst = try Self.load(Self.ecParametersAndKey, for: .signing)
        #expect(parametersFirst.keySet.keys.first?.canSign == true)
        #expect(try parametersFirst.keySet.keys.first?.publicKeyPEM() == Self.load(Self.publicKey, for: .verification).keySet.keys.first?.publicKeyPEM())

        // A certificate followed by its private key: the certificate (first block) is read,
        // so the file cannot sign. Nothing is guessed from later blocks.
        let certificateFirst = try Self.load(Self.certificate + "\n" + Self.ecParametersAndKey, for: .signing)
        #expect(certificateFirst.keySet.keys.count == 1)
        #expect(certificateFirst.keySet.keys.first?.canSign == false)

        // Parameters alone are no key.
        let parametersOnly = String(Self.ecParametersAndKey.prefix(while: { $0 != "\n" })) + "\nBggqhkjOPQMBBw==\n-----END EC PARAMETERS-----\n"
        let error = expectJWTError(.invalidKey) { try Self.load(parametersOnly, for: .signing) }
        #expect(error?.reason.contains("only EC parameters") == true)
    }

    @Test("A private JWK is reduced to its public half for verification; an oct JWK stays a secret")
    func jwk() throws {
        let generated = try JWTKey.generate(for: .rs256, keyID: "r1")
        let file = try Self.load(try generated.jwk(includingPrivate: true), for: .verification)
        #expect(file.format == .jwk)
        let key = try #require(file.keySet.keys.first)
        #expect(!key.canSign)
        #expect(key.keyID == "r1")
        #expect(try Self.load(try generated.jwk(includingPrivate: true), for: .signing).keySet.keys.first?.canSign == true)

        let secret = try JWTKey.hmac(secret: [UInt8](repeating: 7, count: 32), keyID: "h1")
        let oct = try #require(try Self.load(try secret.jwk(includingPrivate: true), for: .verification).keySet.keys.first)
        #expect(oct.isSecret)
        #expect(oct.keyID == "h1")
    }

    @Test("A JWKS keeps its kid selection rules and skipped entries")
    func jwks() throws {
        let first = try JWTKey.generate(for: .es256, keyID: "a").jwk()
        let second = try JWTKey.generate(for: .es256, keyID: "b").jwk()
        let document = #"{"keys":["# + first + "," + second + #","not a key"]}"#
        let file = try Self.load(document, for: .verification)
        #expect(file.format == .jwks)
        #expect(file.keySet.keys.map(\.keyID) == ["a", "b"])
        #expect(file.keySet.skipped.map(\.index) == [2])
        #expect(KeyFile.Format(detecting: Array(document.utf8)) == .jwks)
    }

    @Test("Format detection looks at the shape only: JSON object with keys, other JSON object, anything else")
    func detection() {
        #expect(KeyFile.Format(detecting: Array(#"  {"keys":[]}"#.utf8)) == .jwks)
        #expect(KeyFile.Format(detecting: Array(#"{"kty":"EC"}"#.utf8)) == .jwk)
        #expect(KeyFile.Format(detecting: Array(#"{"keys":"#.utf8)) == .jwk)  // unparsable: the JWK reader names the error
        #expect(KeyFile.Format(detecting: Array("[1,2]".utf8)) == .pem)
        #expect(KeyFile.Format(detecting: [UInt8]()) == .pem)
        #expect(KeyFile.Format(detecting: [0xC3, 0x28]) == nil)  // invalid UTF-8
        #expect(KeyFile.Format(detecting: [0xFF, 0xFE, 0x7B]) == nil)
    }

    @Test("Empty, whitespace-only and non-UTF-8 files are refused as invalid keys")
    func emptyAndNonText() {
        let empty = expectJWTError(.invalidKey) { try KeyFile(contents: [UInt8](), for: .verification) }
        #expect(empty?.reason.contains("no PEM block") == true)
        _ = expectJWTError(.invalidKey) { try Self.load(" \n\t\r\n", for: .signing) }
        let binary = expectJWTError(.invalidKey) { try KeyFile(contents: [0x30, 0x82, 0xFF, 0xFE, 0x00], for: .verification) }
        #expect(binary?.reason == "the key file is not text (expected PEM or JWK JSON)")
    }

    @Test("Hostile JSON and PEM are refused: truncated, too deep, wrong member types, encrypted, mislabelled")
    func hostileInput() {
        let deep = String(repeating: #"{"a":"#, count: 100) + "1" + String(repeating: "}", count: 100)
        let cases = [
            #"{"kty":"#,
            deep,
            #"{"keys":5}"#,
            #"{"keys":[]}"#,
            #"{"keys":[{"kty":"oct","k":"AAAA"}]}"#,
            #"{"kty":"RSA","n":"AQAB","e":"AQAB"}"#,
            #"{"kty":"EC","crv":"P-256","x":"AA","y":"AA"}"#,
            #"{"kty":"oct","k":"AAAA","kty":"oct"}"#,
            "-----BEGIN PUBLIC KEY-----\nnot base64!\n-----END PUBLIC KEY-----",
            "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYI\n",
            "-----BEGIN ENCRYPTED PRIVATE KEY-----\nMFkw\n-----END ENCRYPTED PRIVATE KEY-----",
            "-----BEGIN OPENSSH PRIVATE KEY-----\nMFkw\n-----END OPENSSH PRIVATE KEY-----",
            "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----",
            "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIE example",
        ]
        for text in cases {
            _ = expectJWTError(.invalidKey) { try Self.load(text, for: .verification) }
        }
    }

    @Test("Files over maximumSize are refused before parsing")
    func oversized() {
        let padding = [UInt8](repeating: 0x20, count: KeyFile.maximumSize - Self.publicKey.utf8.count + 1)
        _ = expectJWTError(.tooLarge) { try KeyFile(contents: Array(Self.publicKey.utf8) + padding, for: .verification) }
        // At the limit the same key loads.
        #expect(throws: Never.self) { try KeyFile(contents: Array(Self.publicKey.utf8) + padding.dropLast(), for: .verification) }
    }

    @Test("Random bytes, random text and mutated key files never crash and never load a key by accident", arguments: [1, 2, 3] as [UInt64])
    func garbage(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let templates = [Self.publicKey, Self.certificate, Self.ecParametersAndKey, #"{"kty":"EC","crv":"P-256"}"#]
        for _ in 0..<300 {
            var bytes: [UInt8]
            if Bool.random(using: &random) {
                bytes = (0..<Int.random(in: 0..<512, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            } else {
                bytes = Array(templates[Int.random(in: 0..<templates.count, using: &random)].utf8)
                for _ in 0..<Int.random(in: 1...4, using: &random) where !bytes.isEmpty {
                    bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...127, using: &random)
                }
            }
            switch Result(catching: { () throws(JWTError) -> KeyFile in try KeyFile(contents: bytes, for: .verification) }) {
            case .success(let file):
                // A mutation may leave a key intact (e.g. in a header line): then it is a whole,
                // checked key reduced to its public half.
                #expect(file.keySet.keys.allSatisfy { !$0.canSign }, "seed \(seed)")
            case .failure(let error):
                let code = error.code
                #expect(code == .invalidKey, "seed \(seed): \(code.rawValue)")
            }
        }
    }

    @Test("A refusal names the problem without echoing the file's body")
    func errorsDoNotEchoContents() {
        let marker = "c2VjcmV0LW1hdGVyaWFsLXRoYXQtbXVzdC1ub3QtbGVhaw"
        let texts = [
            "-----BEGIN PRIVATE KEY-----\n\(marker)\n-----END PRIVATE KEY-----",
            "-----BEGIN RSA PRIVATE KEY-----\n\(marker)==\n-----END RSA PRIVATE KEY-----",
            "\(marker)",
        ]
        for text in texts {
            let error = expectJWTError(.invalidKey) { try Self.load(text, for: .signing) }
            #expect(error.map { !$0.reason.contains(marker) } == true)
        }
    }
}
