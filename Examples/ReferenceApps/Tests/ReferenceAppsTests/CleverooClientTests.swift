import Foundation
import Testing
import TokenKitTestSupport

/// The `cleveroo` client as a user runs it: real server process, real client processes,
/// the encrypted-file store with a passphrase file.
@Suite("Cleveroo client")
struct CleverooClientTests {
    static let password = "correct horse battery"

    static func cleveroo(_ server: URL, _ arguments: [String], store: ClientStore, stdin: String = "") async throws -> CLIResult {
        try await store.run("cleveroo", server, arguments, stdin: stdin)
    }

    @Test("register, log in, add and list children, whoami and logout, each a new client process")
    func parentFlow() async throws {
        try await ServerProcess.with("cleveroo-server") { server in
            let store = try ClientStore()
            let email = "mia@example.com"

            let registered = try await Self.cleveroo(server.url, ["register", "--email", email, "--phone", "+49301"], store: store, stdin: "\(Self.password)\n\(Self.password)\n")
            #expect(registered.status == 0 && registered.stdoutText.hasPrefix("registered parent \(email) (id "), "\(registered.summary)")
            let again = try await Self.cleveroo(server.url, ["register", "--email", email, "--phone", "+49301"], store: store, stdin: "\(Self.password)\n\(Self.password)\n")
            expectOneErrorLine(again, status: 1, containing: "error: an account with this email already exists")
            let mismatch = try await Self.cleveroo(server.url, ["register", "--email", "x@example.com", "--phone", "1"], store: store, stdin: "one\ntwo\n")
            expectOneErrorLine(mismatch, status: 1, containing: "error: passwords do not match")

            let wrong = try await Self.cleveroo(server.url, ["login", "parent", "--email", email], store: store, stdin: "wrong\n")
            expectOneErrorLine(wrong, status: 1, containing: "error: invalid email or password")
            let login = try await Self.cleveroo(server.url, ["login", "parent", "--email", email], store: store, stdin: "\(Self.password)\n")
            #expect(login.status == 0 && login.stdoutText == "signed in as parent \(email)\n", "\(login.summary)")
            #expect(!login.stdoutText.contains(Self.password) && !login.stderr.contains(Self.password))

            let add = try await Self.cleveroo(server.url, ["children", "add", "--username", "leo", "--age", "7", "--gender", "male"], store: store)
            #expect(add.status == 0 && add.stdoutText.hasPrefix("added child leo (age 7, male, id "), "\(add.summary)")
            let bad = try await Self.cleveroo(server.url, ["children", "add", "--username", "old", "--age", "30", "--gender", "male"], store: store)
            expectOneErrorLine(bad, status: 1, containing: "error: age must be 1 to 17")
            let list = try await Self.cleveroo(server.url, ["children", "list"], store: store)
            #expect(list.status == 0 && list.stdoutText.hasPrefix("leo\tage 7\tmale\tid "), "\(list.summary)")
            let json = try await Self.cleveroo(server.url, ["children", "list", "--json"], store: store)
            let array = try JSONSerialization.jsonObject(with: Data(json.stdoutText.utf8)) as? [[String: Any]]
            #expect(array?.count == 1 && array?.first?["username"] as? String == "leo", "\(json.summary)")
            let whoami = try await Self.cleveroo(server.url, ["whoami"], store: store)
            #expect(whoami.status == 0 && whoami.stdoutText.hasPrefix("parent \(email) (id ") && whoami.stdoutText.contains("stored in file"), "\(whoami.summary)")

            // The store file holds the session encrypted: no token or password in clear.
            let raw = try Data(contentsOf: URL(fileURLWithPath: store.directory.file("credentials.tkstore")))
            #expect(!String(decoding: raw, as: UTF8.self).contains("eyJ"))

            let out = try await Self.cleveroo(server.url, ["logout"], store: store)
            #expect(out.status == 0 && out.stdoutText == "signed out\n", "\(out.summary)")
            let after = try await Self.cleveroo(server.url, ["children", "list"], store: store)
            expectOneErrorLine(after, status: 1, containing: "error: signed out: your session has ended; sign in again with `cleveroo login parent --email EMAIL`")
        }
    }

    @Test("a passphrase file other users may read (0644) is refused before the store is opened, naming the file and its mode")
    func loosePassphraseFileRefused() async throws {
        let store = try ClientStore()
        let passphrase = store.directory.file("passphrase")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: passphrase)
        // Nothing listens there: the refusal comes before any request.
        let nowhere = try #require(URL(string: "http://127.0.0.1:9"))
        let whoami = try await Self.cleveroo(nowhere, ["whoami"], store: store)
        expectOneErrorLine(whoami, status: 1, containing:
            "error: the passphrase file \(passphrase) has mode 0644: it must not be readable by other users (run: chmod 600 \(passphrase))")
        #expect(!whoami.stderr.contains("store passphrase"))
    }

    @Test("a child signs in with the parent's password; the child's session is refused on parent routes with the server's message")
    func childRoleSeparation() async throws {
        try await ServerProcess.with("cleveroo-server") { server in
            let parentStore = try ClientStore(), childStore = try ClientStore()
            _ = try await Self.cleveroo(server.url, ["register", "--email", "zoe@example.com", "--phone", "1"], store: parentStore, stdin: "\(Self.password)\n\(Self.password)\n")
            _ = try await Self.cleveroo(server.url, ["login", "parent", "--email", "zoe@example.com"], store: parentStore, stdin: "\(Self.password)\n")
            let add = try await Self.cleveroo(server.url, ["children", "add", "--username", "ida", "--age", "11", "--gender", "female"], store: parentStore)
            #expect(add.status == 0, "\(add.summary)")

            let unknown = try await Self.cleveroo(server.url, ["login", "child", "--username", "nobody"], store: childStore, stdin: "\(Self.password)\n")
            expectOneErrorLine(unknown, status: 1, containing: "error: no child with this username")
            let login = try await Self.cleveroo(server.url, ["login", "child", "--username", "ida"], store: childStore, stdin: "\(Self.password)\n")
            #expect(login.status == 0 && login.stdoutText == "signed in as child ida\n", "\(login.summary)")
            let whoami = try await Self.cleveroo(server.url, ["whoami"], store: childStore)
            #expect(whoami.stdoutText.hasPrefix("child ida (id "), "\(whoami.summary)")
            let forbidden = try await Self.cleveroo(server.url, ["children", "list"], store: childStore)
            expectOneErrorLine(forbidden, status: 1, containing: "error: this route needs a parent account")
        }
    }

    @Test("the session survives a client restart and a server restart with --database (the old access token is refused, refreshed once, retried)")
    func sessionSurvivesRestarts() async throws {
        let data = try PrivateTemporaryDirectory(prefix: "refapps")
        defer { withExtendedLifetime(data) {} }
        let database = data.file("cleveroo.sqlite")
        let store = try ClientStore()
        try await ServerProcess.with("cleveroo-server", ["--database", database]) { first in
            _ = try await Self.cleveroo(first.url, ["register", "--email", "max@example.com", "--phone", "1"], store: store, stdin: "\(Self.password)\n\(Self.password)\n")
            let login = try await Self.cleveroo(first.url, ["login", "parent", "--email", "max@example.com"], store: store, stdin: "\(Self.password)\n")
            #expect(login.status == 0, "\(login.summary)")
            _ = try await Self.cleveroo(first.url, ["children", "add", "--username", "tom", "--age", "5", "--gender", "male"], store: store)
            #expect(await first.stop() == 0)
        }

        // A new server process (new port, new signing key), the same database.
        try await ServerProcess.with("cleveroo-server", ["--database", database]) { second in
            let list = try await Self.cleveroo(second.url, ["children", "list"], store: store)
            #expect(list.status == 0 && list.stdoutText.hasPrefix("tom\tage 5\tmale"), "\(list.summary)")
            // And again from yet another client process, with the refreshed session.
            let again = try await Self.cleveroo(second.url, ["children", "list"], store: store)
            #expect(again.status == 0 && again.stdoutText.hasPrefix("tom\t"), "\(again.summary)")
        }
    }

    @Test("an expired access token is refreshed before the request; a rejected refresh token says signed out and clears the session")
    func expiryAndSignedOut() async throws {
        let store = try ClientStore()
        try await ServerProcess.with("cleveroo-server", ["--token-lifetime", "3"]) { server in
            _ = try await Self.cleveroo(server.url, ["register", "--email", "eve@example.com", "--phone", "1"], store: store, stdin: "\(Self.password)\n\(Self.password)\n")
            _ = try await Self.cleveroo(server.url, ["login", "parent", "--email", "eve@example.com"], store: store, stdin: "\(Self.password)\n")
            try await Task.sleep(for: .seconds(4))
            let list = try await Self.cleveroo(server.url, ["children", "list"], store: store)
            #expect(list.status == 0 && list.stdoutText == "no children yet\n", "\(list.summary)")
            #expect(await server.stop() == 0)
        }

        // A server without --database forgot every refresh token: the session has ended.
        try await ServerProcess.with("cleveroo-server") { fresh in
            let refused = try await Self.cleveroo(fresh.url, ["children", "list"], store: store)
            expectOneErrorLine(refused, status: 1, containing: "error: signed out: your session has ended")
            let whoami = try await Self.cleveroo(fresh.url, ["whoami"], store: store)
            expectOneErrorLine(whoami, status: 1, containing: "error: signed out")
        }
    }

    @Test("no password on stdin is refused without contacting the server; --server must be a URL")
    func inputErrors() async throws {
        let store = try ClientStore()
        let noPassword = try await TokenKitCLI(binary: "cleveroo").run(["login", "parent", "--email", "a@b.c", "--server", "http://127.0.0.1:9"] + store.arguments, environment: .client())
        expectOneErrorLine(noPassword, status: 1, containing: "no password given")
        let badURL = try await TokenKitCLI(binary: "cleveroo").run(["whoami", "--server", "ftp://x"] + store.arguments, environment: .client())
        #expect(badURL.status == 2 && badURL.stderr.contains("--server must be an http:// or https:// URL"), "\(badURL.summary)")
    }
}
