import Foundation
import Testing
import TokenKitStore
import TokenKitTestSupport

/// `tokenkit store list` / `get` / `put` / `delete` show stored and echoed fields — account,
/// kind, scope, service — through the one terminal cleaner (issue 23 item 6): no control,
/// separator, bidirectional or invisible character reaches stdout or stderr raw.
@Suite("tokenkit store: stored fields are cleaned before they are shown")
struct StoreOutputCleaningCLITests {
    typealias Fixture = StoreFileCLITests.Fixture

    /// The samples a credential key may hold (C0 controls and DEL are refused as key names).
    static var keySamples: String {
        String(String.UnicodeScalarView(UnsafeTextSamples.all.map(\.scalar).filter { $0.value >= 0x80 }))
    }

    /// Every sample, for fields the store takes as they are (kind, scope).
    static var allSamples: String { String(String.UnicodeScalarView(UnsafeTextSamples.all.map(\.scalar))) }

    @Test("an account name with every class is shown cleaned by put, list, get and delete, and in the not-found error")
    func accountNames() async throws {
        let fx = try Fixture()
        let account = "acc" + Self.keySamples + "ount"
        let service = "svc" + Self.keySamples
        let put = try await fx.run(["store", "put", "--service", service, "--account", account], stdin: Array("S".utf8))
        #expect(put.status == 0, "\(put.stderr)")
        for result in [put,
                       try await fx.run(["store", "list", "--service", service]),
                       try await fx.run(["store", "get", "--service", service, "--account", account]),
                       try await fx.run(["store", "delete", "--service", service, "--account", account])] {
            #expect(result.status == 0, "\(result.stderr)")
            #expect(UnsafeTextSamples.rawSamples(in: result.stdoutText.replacingOccurrences(of: "\n", with: "").replacingOccurrences(of: "\t", with: "")).isEmpty,
                    "\(result.stdoutText.debugDescription)")
            #expect(result.stdoutText.contains("acc" + String(repeating: "?", count: Self.keySamples.unicodeScalars.count) + "ount"),
                    "\(result.stdoutText.debugDescription)")
        }
        let missing = try await fx.run(["store", "get", "--service", service, "--account", account])
        expectOneErrorLine(missing, status: 1, containing: "no credential stored")
        #expect(UnsafeTextSamples.rawSamples(in: String(missing.stderr.dropLast())).isEmpty, "\(missing.stderr.debugDescription)")
    }

    @Test("a kind written by another program, with every class, is shown cleaned by list and get")
    func hostileKind() async throws {
        let fx = try Fixture()
        let passphrase = try String(contentsOfFile: fx.passphraseFile, encoding: .utf8).split(separator: "\n")[0]
        let store = EncryptedFileStore(path: fx.file, key: try .passphrase(String(passphrase)),
                                       options: .init(scryptCost: ScryptCost(logN: 4, r: 8, p: 1)))
        let kind = "k" + Self.allSamples + "d"
        try await store.save(Credential(kind: .init(rawValue: kind), secret: [1, 2], createdAt: nil, updatedAt: nil),
                             for: try CredentialKey(service: "svc", account: "acct"))
        let list = try await fx.run(["store", "list", "--service", "svc"])
        #expect(list.status == 0, "\(list.stderr)")
        let cleaned = "k" + String(repeating: "?", count: UnsafeTextSamples.all.count) + "d"
        #expect(list.stdoutText.hasPrefix("acct\tkind=\(cleaned)\tsize=2"), "\(list.stdoutText.debugDescription)")
        #expect(list.stdoutText.filter { $0 == "\n" }.count == 1)
        let get = try await fx.run(["store", "get", "--service", "svc", "--account", "acct"])
        #expect(get.status == 0, "\(get.stderr)")
        #expect(get.stdoutText.contains("\nkind: \(cleaned)\n"), "\(get.stdoutText.debugDescription)")
        #expect(!get.stdoutText.contains("\u{1B}") && !get.stdoutText.contains("\u{202E}"))
    }

    @Test("a scope from the token endpoint with every class is shown cleaned by get")
    func hostileScope() async throws {
        let fx = try Fixture()
        let scope = "read " + Self.allSamples + " write"
        let json = #"{"access_token":"AT","token_type":"Bearer","scope":"\#(UnsafeTextSamples.jsonEscaped(scope))"}"#
        let put = try await fx.run(["store", "put", "--service", "api", "--account", "a", "--token-set"], stdin: Array(json.utf8))
        #expect(put.status == 0, "\(put.stderr)")
        let get = try await fx.run(["store", "get", "--service", "api", "--account", "a"])
        #expect(get.status == 0, "\(get.stderr)")
        let cleaned = "read " + String(repeating: "?", count: UnsafeTextSamples.all.count) + " write"
        #expect(get.stdoutText.contains("\nscope: \(cleaned)\n"), "\(get.stdoutText.debugDescription)")
    }
}
