import Foundation
import Testing
import TokenKitTestSupport

/// Decodable shapes of the C2SP Wycheproof vector files bundled under
/// `Vectors/wycheproof/` (see SOURCE and LICENSE there).
enum Wycheproof {
    struct File<Group: Decodable>: Decodable {
        let numberOfTests: Int
        let testGroups: [Group]
    }

    /// One signature test (ECDSA, EdDSA, RSA): hex message and signature.
    struct SignatureTest: Decodable, Sendable, CustomTestStringConvertible {
        let tcId: Int
        let comment: String
        let msg: String
        let sig: String
        let result: String
        let flags: [String]
        var testDescription: String { "tcId \(tcId) (\(result)): \(comment)" }
    }

    /// A group sharing one public key (SPKI DER in hex, plus JWK when the file has one).
    struct SignatureGroup: Decodable, Sendable {
        let publicKeyDer: String
        let publicKeyPem: String
        let publicKeyJwk: [String: String]?
        /// The public JWK of files that name it `keyJwk` (rsa_signature_*).
        let keyJwk: [String: String]?
        let tests: [SignatureTest]
    }

    struct MACTest: Decodable, Sendable {
        let tcId: Int
        let comment: String
        let key: String
        let msg: String
        let tag: String
        let result: String
    }

    struct MACGroup: Decodable, Sendable {
        let keySize: Int
        let tagSize: Int
        let tests: [MACTest]
    }

    /// Loads a signature vector file and flattens it into (group index, test) pairs.
    static func signatureGroups(_ file: String) throws -> [SignatureGroup] {
        let data = try TestSupport.vectorData("wycheproof/\(file)")
        let decoded = try JSONDecoder().decode(File<SignatureGroup>.self, from: data)
        let count = decoded.testGroups.reduce(0) { $0 + $1.tests.count }
        precondition(count == decoded.numberOfTests, "\(file): \(count) tests read, file says \(decoded.numberOfTests)")
        return decoded.testGroups
    }

    /// The tests of a bundled JOSE vector file (json_web_signature_test.json,
    /// json_web_key_test.json), read by the shared ``WycheproofJOSE`` loader.
    static func joseCases(_ file: String) throws -> [WycheproofJOSE.Case] {
        try WycheproofJOSE.cases(file, data: TestSupport.vectorData("wycheproof/\(file)"))
    }
}
