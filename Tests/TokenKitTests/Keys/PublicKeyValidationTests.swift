import Foundation
import Testing
@testable import TokenKit
@testable import TokenKitCrypto
import TokenKitTestSupport

/// Every public key passes the same checks whatever its source (issue 9, item 1): an RSA
/// key with e = 1 makes the padded DigestInfo its own signature, so anyone could forge
/// tokens for it. PEM (SPKI, PKCS#1, X.509) used to skip the check that JWKs got.
@Suite("Public key validation")
struct PublicKeyValidationTests {
    /// The modulus of a freshly generated 2048-bit key.
    static let modulus: [UInt8] = {
        guard let key = try? PKey.generate(.rsa), case .rsa(let n, _, _)? = try? key.components(includePrivate: false) else {
            preconditionFailure("cannot generate an RSA key")
        }
        return n
    }()

    enum Source: String, CaseIterable, Sendable {
        case spki = "PUBLIC KEY", pkcs1 = "RSA PUBLIC KEY", certificate = "CERTIFICATE", jwk = "JWK"
    }

    static func load(_ source: Source, n: [UInt8], e: [UInt8]) throws(JWTError) -> JWTKey {
        switch source {
        case .spki:
            return try JWTKey(pem: PEMDocument.encode(label: "PUBLIC KEY", der: DERWriter.rsaSPKI(n: n, e: e)))
        case .pkcs1:
            return try JWTKey(pem: PEMDocument.encode(label: "RSA PUBLIC KEY", der: DERWriter.rsaPublicKey(n: n, e: e)))
        case .certificate:
            let der = DERWriter.certificate(spki: DERWriter.rsaSPKI(n: n, e: e))
            return try JWTKey(pem: PEMDocument.encode(label: "CERTIFICATE", der: der))
        case .jwk:
            return try JWTKey(jwk: #"{"kty":"RSA","n":"\#(Base64URL.encode(n))","e":"\#(Base64URL.encode(e))"}"#)
        }
    }

    @Test("an RSA public key with e = 1 is refused from every source", arguments: Source.allCases)
    func exponentOne(_ source: Source) {
        let error = expectJWTError(.invalidKey) { try Self.load(source, n: Self.modulus, e: [1]) }
        #expect(error?.reason.contains("exponent") == true || error?.reason.contains("invalid") == true, "\(error?.reason ?? "")")
    }

    @Test("an RSA public key with an even exponent is refused from every source", arguments: Source.allCases)
    func evenExponent(_ source: Source) {
        expectJWTError(.invalidKey) { try Self.load(source, n: Self.modulus, e: [0x01, 0x00, 0x00]) }
    }

    @Test("an RSA public key with an even modulus is refused from every source", arguments: Source.allCases)
    func evenModulus(_ source: Source) {
        var n = Self.modulus
        n[n.count - 1] &= 0xFE
        expectJWTError(.invalidKey) { try Self.load(source, n: n, e: [0x01, 0x00, 0x01]) }
    }

    @Test("the same modulus with e = 65537 loads from every source", arguments: Source.allCases)
    func saneKeyLoads(_ source: Source) throws {
        let key = try Self.load(source, n: Self.modulus, e: [0x01, 0x00, 0x01])
        #expect(key.keyType == "RSA")
    }

}
