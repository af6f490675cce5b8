import Foundation
import Testing
import TokenKitTestSupport

/// Issue 10 against the `tokenkit` binary's store commands: crafted files, odd `--file`
/// paths, a strict umask, loose passphrase files and server-controlled text in `store get`.
/// None may crash the process (a trap exits 132 or 133); each failure is one `error:` line.
@Suite("tokenkit store against crafted files and hostile environments")
struct StoreFileHostileCLITests {
    typealias Fixture = StoreFileCLITests.Fixture

    /// `file` with `bytes` at `offset` and the header digest (SHA-256 of bytes 0..<104,
    /// computed by coreutils' sha256sum) recomputed, as an attacker would.
    func forge(_ path: String, at offset: Int, _ bytes: [UInt8]) async throws {
        var file = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        file.replaceSubrange(offset..<offset + bytes.count, with: bytes)
        let header = path + ".header"
        try Data(file[0..<104]).write(to: URL(fileURLWithPath: header))
        let hex = try await ChildProcess("/usr/bin/sha256sum", [header], stdin: .inherit, stderr: .inherit).run().stdoutText.prefix(64)
        try #require(hex.count == 64)
        var digest: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            digest.append(try #require(UInt8(hex[index..<next], radix: 16)))
            index = next
        }
        file.replaceSubrange(104..<136, with: digest)
        try Data(file).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o600)
    }

    func makeStore(_ fx: Fixture) async throws {
        let put = try await fx.run(["store", "put", "--service", "api", "--account", "ci"], stdin: Array("SECRET-X".utf8))
        try #require(put.status == 0, "\(put.stderr)")
    }

    @Test("a crafted ciphertext length near 2^64: exit 2 'corrupted', not a trap, for every command")
    func craftedLength() async throws {
        let fx = try Fixture()
        try await makeStore(fx)
        try await forge(fx.file, at: 64, [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xF0])
        for command in [["get", "--account", "ci"], ["list"], ["delete", "--account", "ci"]] {
            let result = try await fx.run(["store"] + command + ["--service", "api"], stdin: Array("NEW".utf8))
            expectOneErrorLine(result, status: 2, containing: "its header announces an impossible ciphertext length")
        }
    }

    @Test("forged scrypt parameters costing 256 default derivations: exit 2 at once, naming N·r·p")
    func forgedScryptWork() async throws {
        let fx = try Fixture()
        try await makeStore(fx)
        // log2 N = 19, r = 8, p = 16: 512 MiB (inside the memory cap), 2^26 work.
        try await forge(fx.file, at: 11, [19, 0, 0, 0, 8, 0, 0, 0, 16])
        let result = try await fx.run(["store", "get", "--service", "api", "--account", "ci"])
        expectOneErrorLine(result, status: 2, containing: "N·r·p = 2^26 work, more than the 2^23 allowed")
    }

    @Test("--file paths whose directory is missing, relative or odd never crash",
          arguments: ["u/c.tkstore", "c.tkstore", "./u/v/c.tkstore", "u/", ".", "u//c.tkstore", "../cwd/u/c.tkstore"])
    func oddFilePaths(file: String) async throws {
        let fx = try Fixture()
        let wrapper = ["/bin/sh", "-c", "cd \"$TK_DIR\" && exec \"$0\" \"$@\""]
        let common = ["--backend", "file", "--file", file, "--passphrase-file", fx.passphraseFile, "--scrypt-log-n", "4"]
        let environment = ["HOME": fx.directory, "TK_DIR": fx.directory + "/cwd"]
        try FileManager.default.createDirectory(atPath: fx.directory + "/cwd", withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let get = try await TokenKitCLI().run(["store", "get", "--service", "api", "--account", "ci"] + common, environment: .isolated(environment), wrapper: wrapper)
        #expect(get.status == 1 || get.status == 2, "exit \(get.status): \(get.stderr)")
        #expect(get.stderr.hasPrefix("error: "))
        let put = try await TokenKitCLI().run(
            ["store", "put", "--service", "api", "--account", "ci"] + common, stdin: Array("S".utf8), environment: .isolated(environment), wrapper: wrapper)
        #expect(put.status == 0 || put.status == 2, "exit \(put.status): \(put.stderr)")
        if put.status == 0 {
            let again = try await TokenKitCLI().run(["store", "get", "--service", "api", "--account", "ci"] + common, environment: .isolated(environment), wrapper: wrapper)
            #expect(again.status == 0, "\(again.stderr)")
        } else {
            expectOneErrorLine(put, status: 2, containing: "error: ")
        }
    }

    @Test("under umask 0277 every file is 0600 and every new directory 0700, and later writes still work")
    func strictUmask() async throws {
        let fx = try Fixture()
        let wrapper = ["/bin/sh", "-c", "umask 0277 && exec \"$0\" \"$@\""]
        for account in ["one", "two"] {
            let result = try await TokenKitCLI().run(
                ["store", "put", "--service", "api", "--account", account] + fx.backend, stdin: Array("S".utf8),
                environment: .isolated(fx.environment), wrapper: wrapper)
            #expect(result.status == 0, "\(result.stderr)")
        }
        #expect(try mode(fx.directory + "/data") == 0o700)
        #expect(try mode(fx.file) == 0o600)
        #expect(try mode(fx.file + ".lock") == 0o600)
        let list = try await fx.run(["store", "list", "--service", "api"])
        #expect(list.stdoutText.split(separator: "\n").count == 2)
    }

    @Test("a passphrase file readable by group or others is refused, naming the file and the mode",
          arguments: [0o644, 0o640, 0o604])
    func loosePassphraseFile(loose: Int) async throws {
        let fx = try Fixture()
        try FileManager.default.setAttributes([.posixPermissions: loose], ofItemAtPath: fx.passphraseFile)
        let result = try await fx.run(["store", "put", "--service", "api", "--account", "ci"], stdin: Array("S".utf8))
        let shown = "0" + String(loose, radix: 8)
        expectOneErrorLine(result, status: 2, containing: "the passphrase file \(fx.passphraseFile) has mode \(shown): it must not be readable by other users (run: chmod 600 \(fx.passphraseFile))")
        #expect(!FileManager.default.fileExists(atPath: fx.file))
    }

    @Test("store get never prints the scope's escape sequences")
    func scopeIsCleaned() async throws {
        let fx = try Fixture()
        let json = #"{"access_token":"at","refresh_token":"rt","scope":"read \u001b]0;owned\u0007\u001b[2J write"}"#
        let put = try await fx.run(["store", "put", "--service", "api", "--account", "ci", "--token-set"], stdin: Array(json.utf8))
        try #require(put.status == 0, "\(put.stderr)")
        let get = try await fx.run(["store", "get", "--service", "api", "--account", "ci"])
        #expect(get.status == 0)
        #expect(!get.stdout.contains(0x1B) && !get.stdout.contains(0x07))
        #expect(get.stdoutText.contains("scope: read ?]0;owned??[2J write"))
    }

    func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
    }
}
