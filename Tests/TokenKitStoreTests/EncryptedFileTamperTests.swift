import Foundation
import Testing
import TokenKitTestSupport
import TokenKitStore

/// A wrong passphrase, a modified file and a truncated or foreign file are each detected and
/// reported with their own error; a file that fails to open is never overwritten.
@Suite("Encrypted file: tampering and wrong keys")
struct EncryptedFileTamperTests {
    static let cost = ScryptCost(logN: 4, r: 8, p: 1)
    static let headerSize = 136
    static let storeName = "credentials.tkstore"

    /// A private directory holding a store file (``storeName``) with one entry.
    func makeFile(passphrase: String = "pass-one", secret: String = "TOPSECRET-aaaa") async throws -> PrivateTemporaryDirectory {
        let directory = try PrivateTemporaryDirectory()
        let path = directory.file(Self.storeName)
        // A fixed clock: files made with the same secret length then have the same size.
        let store = EncryptedFileStore(
            path: path, key: try .passphrase(passphrase), options: .init(scryptCost: Self.cost),
            clock: FixedClock(Date(timeIntervalSince1970: 1_800_000_000.5)))
        try await store.save(Credential(secret: Array(secret.utf8)), for: CredentialKey(service: "svc", account: "one"))
        return directory
    }

    func open(_ path: String, passphrase: String = "pass-one") throws -> EncryptedFileStore {
        EncryptedFileStore(path: path, key: try .passphrase(passphrase), options: .init(scryptCost: Self.cost))
    }

    func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }
    func write(_ bytes: [UInt8], _ path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o600)
    }

    /// Loads from a fresh store instance and returns the error it throws.
    func loadError(_ path: String, passphrase: String = "pass-one") async throws -> TokenStoreError {
        let store = try open(path, passphrase: passphrase)
        do {
            _ = try await store.load(CredentialKey(service: "svc", account: "one"))
        } catch {
            return error
        }
        Issue.record("loading \(path) succeeded")
        return TokenStoreError(code: .backend, message: "no error")
    }

    @Test("the file has the documented layout: magic, version, header size")
    func layout() async throws {
        let directory = try await makeFile()
        let path = directory.file(Self.storeName)
        let file = try bytes(path)
        #expect(Array(file[0..<8]) == Array("TKSTORE".utf8) + [0])
        #expect(Array(file[8..<10]) == [0, 1])
        #expect(file[10] == 1)  // scrypt
        #expect(file[11] == 4)  // log2 N
        let length = file[64..<72].reduce(0) { ($0 << 8) | Int($1) }
        #expect(file.count == Self.headerSize + length + 16)
        #expect(!String(decoding: file, as: UTF8.self).contains("TOPSECRET"))
    }

    @Test("a wrong passphrase is reported as such, not as damage, and never echoed")
    func wrongPassphrase() async throws {
        let directory = try await makeFile()
        let path = directory.file(Self.storeName)
        let error = try await loadError(path, passphrase: "not-the-passphrase")
        #expect(error.code == .wrongPassphrase)
        #expect(error.message.contains("wrong passphrase"))
        #expect(!error.message.contains("not-the-passphrase") && !error.message.contains("pass-one"))
    }

    @Test("flipped bytes anywhere are detected as a modified file, distinct from a wrong passphrase",
          arguments: [0, 7, 9, 10, 11, 15, 20, 51, 52, 63, 64, 71, 72, 103, 104, 135, 136, 150, -16, -1])
    func flippedByte(_ offset: Int) async throws {
        let directory = try await makeFile()
        let path = directory.file(Self.storeName)
        var file = try bytes(path)
        let index = offset >= 0 ? offset : file.count + offset
        file[index] ^= 0x01
        try write(file, path)
        let error = try await loadError(path)
        #expect(error.code == .corrupted, "offset \(offset): \(error.message)")
        let expected: String = switch index {
        case 0..<8: "not a TokenKit credential store"
        case 8..<10: "store format version"
        case 10..<Self.headerSize: "header checksum"
        default: "fail authentication"
        }
        #expect(error.message.contains(expected), "offset \(offset): \(error.message)")
        #expect(!error.message.contains("TOPSECRET"))
    }

    @Test("a header re-checksummed after changing the nonce still fails authentication (the header is the AAD)")
    func forgedHeaderDigest() async throws {
        let directory = try await makeFile()
        let path = directory.file(Self.storeName)
        var file = try bytes(path)
        file[55] ^= 0x80  // inside the nonce
        let digest = try sha256(Array(file[0..<104]))
        file.replaceSubrange(104..<136, with: digest)
        try write(file, path)
        let error = try await loadError(path)
        #expect(error.code == .corrupted)
        #expect(error.message.contains("fail authentication"))
    }

    @Test("truncation at any length is reported as truncated or empty", arguments: [0, 5, 9, 100, 135, 136, -1, -17])
    func truncated(_ length: Int) async throws {
        let directory = try await makeFile()
        let path = directory.file(Self.storeName)
        let file = try bytes(path)
        try write(Array(file[0..<(length >= 0 ? length : file.count + length)]), path)
        let error = try await loadError(path)
        #expect(error.code == .corrupted)
        #expect(error.message.contains("truncated") || error.message.contains("empty"), "\(length): \(error.message)")
    }

    @Test("trailing garbage is reported")
    func trailingBytes() async throws {
        let directory = try await makeFile()
        let path = directory.file(Self.storeName)
        try write(try bytes(path) + [0x42], path)
        let error = try await loadError(path)
        #expect(error.code == .corrupted)
        #expect(error.message.contains("trailing"))
    }

    @Test("a header swapped in from another file with the same passphrase fails authentication")
    func swappedHeader() async throws {
        let dirA = try await makeFile(secret: "TOPSECRET-aaaa")
        let pathA = dirA.file(Self.storeName)
        let dirB = try await makeFile(secret: "TOPSECRET-bbbb")
        let pathB = dirB.file(Self.storeName)
        let a = try bytes(pathA), b = try bytes(pathB)
        try #require(a.count == b.count)
        try write(Array(b[0..<Self.headerSize]) + Array(a[Self.headerSize...]), pathA)
        let error = try await loadError(pathA)
        #expect(error.code == .corrupted)
        #expect(error.message.contains("fail authentication"))
    }

    @Test("an unknown version and a foreign file are named as such")
    func versionAndMagic() async throws {
        let directory = try await makeFile()
        let path = directory.file(Self.storeName)
        var file = try bytes(path)
        file[9] = 7
        try write(file, path)
        #expect(try await loadError(path).message.contains("version 7"))
        try write(Array("{\"not\": \"a store\"}".utf8), path)
        let foreign = try await loadError(path)
        #expect(foreign.code == .corrupted)
        #expect(foreign.message.contains("not a TokenKit credential store"))
    }

    @Test("a file that fails to open is never overwritten: save and delete leave it byte for byte")
    func neverOverwritten() async throws {
        let directory = try await makeFile()
        let path = directory.file(Self.storeName)
        let original = try bytes(path)
        let wrong = try open(path, passphrase: "wrong")
        await #expect(throws: TokenStoreError(code: .wrongPassphrase, message: "")) {
            try await wrong.save(Credential(secret: [1]), for: CredentialKey(service: "svc", account: "two"))
        }
        await #expect(throws: TokenStoreError(code: .wrongPassphrase, message: "")) {
            try await wrong.delete(CredentialKey(service: "svc", account: "one"))
        }
        #expect(try bytes(path) == original)
        var damaged = original
        damaged[200] ^= 1
        try write(damaged, path)
        await #expect(throws: TokenStoreError(code: .corrupted, message: "")) {
            try await open(path).save(Credential(secret: [1]), for: CredentialKey(service: "svc", account: "two"))
        }
        #expect(try bytes(path) == damaged)
    }

    @Test("a raw 32-byte key opens only with that key, and is told apart from a passphrase file")
    func rawKey() async throws {
        let directory = try PrivateTemporaryDirectory()
        let path = "\(directory)/raw.tkstore"
        let key = (0..<32).map { UInt8($0 &* 7 &+ 3) }
        let store = EncryptedFileStore(path: path, key: try .rawKey(key))
        let entry = try CredentialKey(service: "svc", account: "one")
        try await store.save(Credential(secret: [1, 2, 3]), for: entry)
        #expect(try await EncryptedFileStore(path: path, key: try .rawKey(key)).load(entry)?.secret == [1, 2, 3])
        #expect(try bytes(path)[10] == 2)
        var other = key
        other[0] ^= 1
        await #expect(throws: TokenStoreError(code: .wrongPassphrase, message: "")) {
            try await EncryptedFileStore(path: path, key: try .rawKey(other)).load(entry)
        }
        let error = try await loadError(path, passphrase: "some passphrase")
        #expect(error.code == .wrongPassphrase)
        #expect(error.message.contains("raw key"))
        #expect(throws: TokenStoreError(code: .missingPassphrase, message: "")) { try FileStoreKey.rawKey([1, 2, 3]) }
        #expect(throws: TokenStoreError(code: .missingPassphrase, message: "")) { try FileStoreKey.passphrase("") }
    }

    @Test("each write uses a fresh nonce, and the key and secrets never show in descriptions")
    func freshNonce() async throws {
        let directory = try await makeFile()
        let path = directory.file(Self.storeName)
        let store = try open(path)
        let key = try CredentialKey(service: "svc", account: "one")
        var nonces: Set<[UInt8]> = []
        for i in 0..<5 {
            try await store.save(Credential(secret: Array("TOPSECRET-\(i)".utf8)), for: key)
            nonces.insert(Array(try bytes(path)[52..<64]))
        }
        #expect(nonces.count == 5)
        #expect(!String(describing: try FileStoreKey.passphrase("pass-one")).contains("pass-one"))
        #expect(!String(describing: try #require(try await store.load(key))).contains("TOPSECRET"))
    }
}
