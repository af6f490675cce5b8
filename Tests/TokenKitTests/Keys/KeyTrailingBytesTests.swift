import Foundation
import Testing
import TokenKit

/// Key DER followed by extra bytes is refused in every PEM form, with a reason that names
/// the trailing bytes. These refusals are also the error paths `scripts/leak-check` runs
/// under LeakSanitizer: the decoded OpenSSL object must be freed when the key is refused
/// (issue 9, item 4).
@Suite("Keys: trailing bytes after the DER")
struct KeyTrailingBytesTests {
    /// A PEM block of `label` around `der`.
    static func pem(_ label: String, _ der: [UInt8]) -> String {
        "-----BEGIN \(label)-----\n\(Data(der).base64EncodedString(options: [.lineLength64Characters]))\n-----END \(label)-----\n"
    }

    /// The DER inside the first PEM block of `text`.
    static func der(_ text: String) throws -> [UInt8] {
        let body = text.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        return try #require(Data(base64Encoded: body).map { [UInt8]($0) })
    }

    @Test("a public key (SPKI) with one extra byte is refused, naming the trailing bytes", arguments: [
        JWTAlgorithm.es256, .rs256, .eddsa,
    ])
    func publicKey(_ algorithm: JWTAlgorithm) throws {
        let der = try Self.der(try JWTKey.generate(for: algorithm).publicKeyPEM())
        #expect(throws: Never.self) { try JWTKey(pem: Self.pem("PUBLIC KEY", der)) }  // control
        let error = expectJWTError(.invalidKey) { try JWTKey(pem: Self.pem("PUBLIC KEY", der + [0])) }
        #expect(error?.reason.contains("trailing bytes") == true, "\(error?.reason ?? "")")
    }

    @Test("a private key (PKCS#8) with extra bytes is refused, naming the trailing bytes", arguments: [
        JWTAlgorithm.es256, .rs256, .eddsa,
    ])
    func privateKey(_ algorithm: JWTAlgorithm) throws {
        let der = try Self.der(try JWTKey.generate(for: algorithm).privateKeyPEM())
        #expect(throws: Never.self) { try JWTKey(pem: Self.pem("PRIVATE KEY", der)) }  // control
        let error = expectJWTError(.invalidKey) { try JWTKey(pem: Self.pem("PRIVATE KEY", der + [0x05, 0x00])) }
        #expect(error?.reason.contains("trailing bytes") == true, "\(error?.reason ?? "")")
    }
}
