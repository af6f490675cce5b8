import Foundation
import Testing
import TokenKitTestSupport
import TokenKitStore

/// Issue 10 findings 4 and 7: header fields an attacker can set (and re-checksum, the digest
/// being unkeyed) must make a reader report a corrupted file, never trap and never run an
/// unbounded key derivation.
@Suite("Encrypted file: forged header fields")
struct EncryptedFileForgedHeaderTests {
    let tamper = EncryptedFileTamperTests()

    /// `file` with `bytes` written at `offset` and the header digest recomputed.
    func forged(_ file: [UInt8], at offset: Int, _ bytes: [UInt8]) throws -> [UInt8] {
        var out = file
        out.replaceSubrange(offset..<offset + bytes.count, with: bytes)
        out.replaceSubrange(104..<136, with: try sha256(Array(out[0..<104])))
        return out
    }

    func bigEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        stride(from: T.bitWidth - 8, through: 0, by: -8).map { UInt8(truncatingIfNeeded: value >> $0) }
    }

    @Test("a ciphertext length near 2^64 is reported as corrupted, not an arithmetic trap",
          arguments: [UInt64.max, UInt64.max - 135, UInt64.max - 151, UInt64(1) << 63, UInt64(1) << 40])
    func hugeLengthField(length: UInt64) async throws {
        let directory = try await tamper.makeFile()
        let path = directory.file(EncryptedFileTamperTests.storeName)
        try tamper.write(try forged(try tamper.bytes(path), at: 64, bigEndian(length)), path)
        let error = try await tamper.loadError(path)
        #expect(error.code == .corrupted)
        #expect(error.message.contains("truncated"), "\(error.message)")
    }

    @Test("a length one short or one long of the file is named exactly")
    func offByOneLength() async throws {
        let directory = try await tamper.makeFile()
        let path = directory.file(EncryptedFileTamperTests.storeName)
        let file = try tamper.bytes(path)
        let length = UInt64(file.count - 136 - 16)
        try tamper.write(try forged(file, at: 64, bigEndian(length + 1)), path)
        #expect(try await tamper.loadError(path).message.contains("is truncated: expected \(file.count + 1) bytes, found \(file.count)"))
        try tamper.write(try forged(file, at: 64, bigEndian(length - 1)), path)
        #expect(try await tamper.loadError(path).message.contains("has 1 unexpected trailing bytes"))
    }

    @Test("scrypt work N·r·p above 2^23 is refused before deriving, even within the memory cap",
          arguments: [(UInt8(19), UInt32(8), UInt32(16)), (18, 8, 16), (16, 64, 4), (22, 1, 16)])
    func excessiveWork(logN: UInt8, r: UInt32, p: UInt32) async throws {
        let directory = try await tamper.makeFile()
        let path = directory.file(EncryptedFileTamperTests.storeName)
        let file = try forged(try tamper.bytes(path), at: 11, [logN] + bigEndian(r) + bigEndian(p))
        try tamper.write(file, path)
        // Today's cost would be 2^23 to 2^26 block mixes (up to a minute); a refusal is immediate,
        // and it is a corruption report, not "wrong passphrase" after the work was done.
        let error = try await tamper.loadError(path)
        #expect(error.code == .corrupted, "\(error.message)")
        #expect(error.message.contains("N·r·p"), "\(error.message)")
    }

    @Test("the largest accepted work still opens when the file was made with it")
    func workAtTheCap() async throws {
        // N=2^10, r=8, p=16 (2^17) is fine and cheap; N=2^17, r=8, p=16 (2^24, 128 MiB) is over.
        let directory = try PrivateTemporaryDirectory()
        let path = "\(directory)/c.tkstore"
        let store = EncryptedFileStore(path: path, key: try .passphrase("pw"), options: .init(scryptCost: ScryptCost(logN: 10, r: 8, p: 16)))
        let key = try CredentialKey(service: "s", account: "a")
        try await store.save(Credential(secret: [1, 2, 3]), for: key)
        #expect(try await store.load(key)?.secret == [1, 2, 3])
        let tooMuch = EncryptedFileStore(
            path: "\(directory)/d.tkstore", key: try .passphrase("pw"), options: .init(scryptCost: ScryptCost(logN: 17, r: 8, p: 16)))
        let error = await #expect(throws: TokenStoreError.self) { try await tooMuch.save(Credential(secret: [1]), for: key) }
        #expect(error?.message.contains("N·r·p") == true)
    }
}
