import Foundation
import Testing

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

    /// A JOSE test group (json_web_signature_test.json, json_web_key_test.json): the key
    /// material is a JWK or a JWKS kept as JSON text so TokenKit parses it itself.
    struct JOSECase: Sendable, CustomTestStringConvertible {
        let file: String
        let tcId: Int
        let comment: String
        let groupComment: String
        let jws: String
        let result: String
        let flags: [String]
        /// The verification key: the group's `public` member if any, else `private`.
        let keyJSON: String
        /// Whether `keyJSON` is a JWKS (`{"keys":[...]}`) rather than one JWK.
        let isKeySet: Bool
        var testDescription: String { "\(file) tcId \(tcId) (\(result)) [\(groupComment)]: \(comment)" }
    }

    static func joseCases(_ file: String) throws -> [JOSECase] {
        let data = try TestSupport.vectorData("wycheproof/\(file)")
        guard let root = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let groups = root["testGroups"] as? [[String: Any]], let expected = root["numberOfTests"] as? Int
        else { throw CocoaError(.fileReadCorruptFile) }
        var cases: [JOSECase] = []
        for group in groups {
            guard let key = (group["public"] ?? group["private"]) as? [String: Any] else { continue }
            let keyData = try JSONSerialization.data(withJSONObject: key, options: [.sortedKeys])
            let keyJSON = String(decoding: keyData, as: UTF8.self)
            for test in group["tests"] as? [[String: Any]] ?? [] {
                cases.append(JOSECase(
                    file: file,
                    tcId: test["tcId"] as? Int ?? -1,
                    comment: test["comment"] as? String ?? "",
                    groupComment: group["comment"] as? String ?? "",
                    jws: test["jws"] as? String ?? "",
                    result: test["result"] as? String ?? "",
                    flags: test["flags"] as? [String] ?? [],
                    keyJSON: keyJSON,
                    isKeySet: key["keys"] != nil))
            }
        }
        precondition(cases.count == expected, "\(file): \(cases.count) tests read, file says \(expected)")
        return cases
    }
}
