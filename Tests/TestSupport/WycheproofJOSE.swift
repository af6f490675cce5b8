import Foundation
import Testing

/// The C2SP Wycheproof JOSE vector files (`json_web_signature_test.json`,
/// `json_web_key_test.json`, bundled under Tests/TokenKitTests/Vectors/wycheproof/ with their
/// SOURCE and LICENSE), read one way for the library and the CLI suites.
public enum WycheproofJOSE {
    /// The vector directory in the source tree (for suites that run the CLI and have no bundle).
    public static let directory = SourceTree.root.appendingPathComponent("Tests/TokenKitTests/Vectors/wycheproof")

    /// Thrown when a file is not a Wycheproof JOSE file, or holds fewer or more tests than it
    /// says (a truncated file must not pass by testing less).
    public struct Malformed: Error, CustomStringConvertible {
        /// What was wrong.
        public let description: String
    }

    /// One test: a compact (or JSON) JWS and the group's key, kept as JSON text so that
    /// TokenKit parses the key itself.
    public struct Case: Sendable, CustomTestStringConvertible {
        /// The vector file's name.
        public let file: String
        /// Wycheproof's test id.
        public let tcId: Int
        /// The test's comment.
        public let comment: String
        /// The group's comment.
        public let groupComment: String
        /// The JWS.
        public let jws: String
        /// `valid`, `invalid` or `acceptable`.
        public let result: String
        /// Wycheproof's flags.
        public let flags: [String]
        /// The verification key: the group's `public` member if any, else `private`.
        public let keyJSON: String
        /// Whether `keyJSON` is a JWKS (`{"keys":[...]}`) rather than one JWK.
        public let isKeySet: Bool
        /// Whether Wycheproof marks the test valid.
        public var valid: Bool { result == "valid" }
        /// File, id, verdict, group and comment.
        public var testDescription: String { "\(file) tcId \(tcId) (\(result)) [\(groupComment)]: \(comment)" }
    }

    /// Every test of the file `name` in `directory`.
    public static func cases(_ name: String, in directory: URL = directory) throws -> [Case] {
        try cases(name, data: Data(contentsOf: directory.appendingPathComponent(name)))
    }

    /// Every test of a vector file's `data` (named `name` in the cases).
    public static func cases(_ name: String, data: Data) throws -> [Case] {
        guard let root = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let groups = root["testGroups"] as? [[String: Any]], let expected = root["numberOfTests"] as? Int
        else { throw Malformed(description: "\(name) is not a Wycheproof test file") }
        var cases: [Case] = []
        for group in groups {
            guard let key = (group["public"] ?? group["private"]) as? [String: Any] else { continue }
            let keyData = try JSONSerialization.data(withJSONObject: key, options: [.sortedKeys])
            let keyJSON = String(decoding: keyData, as: UTF8.self)
            for test in group["tests"] as? [[String: Any]] ?? [] {
                cases.append(Case(
                    file: name,
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
        guard cases.count == expected else { throw Malformed(description: "\(name): \(cases.count) tests read, file says \(expected)") }
        return cases
    }
}
