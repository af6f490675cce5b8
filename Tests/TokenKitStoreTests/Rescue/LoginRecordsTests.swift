import Foundation
import Testing
import TokenKitTestSupport
import TokenKitStore

/// ``LoginRecords``: which backend holds a login, in 0600 files named by digests.
@Suite("LoginRecords")
struct LoginRecordsTests {
    @Test("write, read, list by service, remove; names never become paths")
    func roundTrip() throws {
        let directory = try PrivateTemporaryDirectory()
        let records = LoginRecords(directory: "\(directory)/logins")
        let key = try CredentialKey(service: "../svc", account: "a/b")
        #expect(try records.read(key) == nil)
        try records.write(LoginRecord(backend: "file", file: "/x/credentials.tkstore"), for: key)
        try records.write(LoginRecord(backend: "file", file: "/x/credentials.tkstore"), for: try CredentialKey(service: "../svc", account: "c"))
        #expect(try records.read(key) == LoginRecord(backend: "file", file: "/x/credentials.tkstore"))
        #expect(try records.records(service: "../svc").count == 2)
        #expect(try records.records(service: "other").isEmpty)
        let files = try FileManager.default.subpathsOfDirectory(atPath: "\(directory)/logins")
        #expect(files.allSatisfy { !$0.contains("svc") && !$0.contains("..") }, "\(files)")
        try records.remove(key)
        #expect(try records.read(key) == nil)
        try records.remove(key)
    }

    @Test("a record that is not TokenKit's is refused with its path, not guessed at")
    func malformed() throws {
        #expect(throws: TokenStoreError.self) { try LoginRecords.parse(Array("backend=file\nfile=relative\n".utf8), path: "/r") }
        let error = #expect(throws: TokenStoreError.self) { try LoginRecords.parse(Array("backend=file\nsecret=x\n".utf8), path: "/r") }
        #expect(error?.message.hasPrefix("/r is not a TokenKit login record") == true)
        #expect(try LoginRecords.parse(Array("backend=secret-service\n".utf8), path: "/r") == LoginRecord(backend: "secret-service"))
    }
}
