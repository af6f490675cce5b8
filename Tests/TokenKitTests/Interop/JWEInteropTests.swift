import Foundation
import Testing
import TokenKit
import TokenKitTestSupport

/// JWE interop with two independent implementations from PyPI, joserfc and jwcrypto
/// (Tests/Interop/jwe_peer.py): both encrypt for every alg TokenKit supports and a spread of
/// enc, with keys in PEM, JWK and raw-secret files, and TokenKit decrypts; then TokenKit
/// encrypts to every one of those keys and both libraries decrypt.
@Suite("Interop: JWE with joserfc and jwcrypto, both ways", .enabled(if: PythonInterop.jwePeerEnabled, PythonInterop.jwePeerSkipMessage))
struct JWEInteropTests {
    struct Manifest: Codable {
        struct Key: Codable { var alg: String; var curve: String?; var `private`: String; var `public`: String; var format: String }
        struct Case: Codable { var lib: String; var alg: String; var enc: String; var key: String; var token: String; var plaintext: String? }
        var keys: [Key]
        var cases: [Case]
    }

    struct Results: Codable {
        struct Result: Codable { var ok: Bool; var plaintext: String?; var error: String? }
        var results: [Result]
    }

    @Test("tokens from joserfc and jwcrypto decrypt in TokenKit, and TokenKit's decrypt in both, for every alg")
    func bothWays() async throws {
        guard PythonInterop.requireJWEPeer() else { return }
        let directory = try PrivateTemporaryDirectory(prefix: "tokenkit-interop")
        defer { withExtendedLifetime(directory) {} }
        let generated = try await PythonInterop.run(script: "jwe_peer.py", ["generate", directory.path])
        try #require(generated.status == 0, "jwe_peer.py generate failed: \(generated.stderr)")
        let manifest = try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: URL(fileURLWithPath: directory.file("manifest.json"))))

        // Python → TokenKit.
        var decrypted: Set<String> = [], libraries: Set<String> = [], encryptions: Set<String> = []
        for c in manifest.cases {
            let label = "\(c.lib) \(c.alg) \(c.enc) (\(c.key.split(separator: "/").last ?? ""))"
            guard let algorithm = JWEKeyAlgorithm(name: c.alg) else { Issue.record("\(label): unknown alg"); continue }
            do {
                let key = try JWEKey(keyFileContents: Array(try Data(contentsOf: URL(fileURLWithPath: c.key))), for: algorithm)
                let result = try JWEDecrypter(key: key).decrypt(c.token)
                #expect(result.plaintext == (try Base64URL.decode(c.plaintext ?? "")), "\(label): plaintext differs")
                decrypted.insert(c.alg)
                libraries.insert(c.lib)
                encryptions.insert(c.enc)
            } catch {
                Issue.record("\(label): TokenKit refused: \(error)")
            }
        }
        #expect(decrypted == Set(JWEKeyAlgorithm.all.map(\.name)))
        #expect(libraries == ["joserfc", "jwcrypto"])
        #expect(encryptions == Set(JWEContentEncryption.all.map(\.name)))

        // TokenKit → Python.
        var back: [Manifest.Case] = []
        for (index, key) in manifest.keys.enumerated() {
            guard let algorithm = JWEKeyAlgorithm(name: key.alg) else { continue }
            let file = Array(try Data(contentsOf: URL(fileURLWithPath: key.public)))
            let recipient = try JWEKey(keyFileContents: file, for: algorithm)
            let encryptions: [JWEContentEncryption] = algorithm == .direct
                ? JWEContentEncryption.all.filter { $0.keyByteCount == file.count }
                : [JWEContentEncryption.all[index % 6], JWEContentEncryption.all[(index + 3) % 6]]
            for encryption in encryptions {
                let plaintext = Array("TokenKit → \(key.alg) \(encryption) #\(index)".utf8)
                let token = try JWEEncrypter(recipient: recipient, algorithm: algorithm, encryption: encryption).encrypt(plaintext)
                for lib in ["joserfc", "jwcrypto"] {
                    back.append(Manifest.Case(lib: lib, alg: key.alg, enc: encryption.name, key: key.private, token: token, plaintext: Base64URL.encode(plaintext)))
                }
            }
        }
        let backPath = URL(fileURLWithPath: directory.file("back.json")), resultPath = URL(fileURLWithPath: directory.file("results.json"))
        try JSONEncoder().encode(Manifest(keys: [], cases: back)).write(to: backPath)
        let run = try await PythonInterop.run(script: "jwe_peer.py", ["decrypt", backPath.path, resultPath.path])
        try #require(run.status == 0, "jwe_peer.py decrypt failed: \(run.stderr)")
        let results = try JSONDecoder().decode(Results.self, from: Data(contentsOf: resultPath)).results
        try #require(results.count == back.count)
        var accepted: Set<String> = []
        for (c, result) in zip(back, results) {
            #expect(result.ok, "\(c.lib) could not decrypt TokenKit's \(c.alg) \(c.enc): \(result.error ?? "")")
            #expect(result.plaintext == c.plaintext, "\(c.lib) \(c.alg) \(c.enc): plaintext differs")
            if result.ok { accepted.insert("\(c.lib) \(c.alg)") }
        }
        #expect(accepted.count == 2 * JWEKeyAlgorithm.all.count)
    }
}
