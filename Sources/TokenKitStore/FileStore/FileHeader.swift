internal import TokenKitCrypto

/// The fixed-size header of an encrypted store file, format version 1 (see
/// docs/FILE-FORMAT.md). All integers are big-endian. The whole encoded header, including
/// its digest, is the AES-GCM additional data, so every field is authenticated.
struct FileHeader: Equatable {
    static let magic: [UInt8] = Array("TKSTORE".utf8) + [0]
    static let currentVersion: UInt16 = 1
    static let saltByteCount = 32
    static let keyCheckByteCount = 32
    /// magic 8, version 2, key kind 1, log2 N 1, r 4, p 4, salt 32, nonce 12,
    /// ciphertext length 8, key check 32, header digest 32.
    static let byteCount = 8 + 2 + 1 + 1 + 4 + 4 + saltByteCount + 12 + 8 + keyCheckByteCount + 32
    static let digestOffset = byteCount - 32

    enum KeyKind: UInt8 {
        case scrypt = 1
        case rawKey = 2
    }

    var keyKind: KeyKind
    /// Zero for ``KeyKind/rawKey``.
    var scrypt: Scrypt.Parameters
    var salt: [UInt8]
    var nonce: [UInt8]
    var ciphertextLength: UInt64
    var keyCheck: [UInt8]

    /// The encoded header (``byteCount`` bytes, digest included).
    func encoded() throws(CryptoError) -> [UInt8] {
        var out = Self.magic
        out.appendBigEndian(Self.currentVersion)
        out.append(keyKind.rawValue)
        out.append(scrypt.logN)
        out.appendBigEndian(scrypt.r)
        out.appendBigEndian(scrypt.p)
        out += salt
        out += nonce
        out.appendBigEndian(ciphertextLength)
        out += keyCheck
        out += try SHA256Digest.hash(out)
        return out
    }

    /// Parses and checks the header at the start of `file`, in an order that gives each
    /// failure its own message: not a store, unsupported version, truncated, damaged header,
    /// unacceptable parameters, wrong length.
    init(parsing file: [UInt8], path: String) throws(TokenStoreError) {
        if file.isEmpty { throw .corrupted("\(path) is empty: it is not a TokenKit store (it may have been truncated)") }
        guard Array(file.prefix(Self.magic.count)) == Array(Self.magic.prefix(file.count)) else {
            throw .corrupted("\(path) is not a TokenKit credential store (bad magic bytes)")
        }
        guard file.count >= Self.magic.count else { throw .corrupted("\(path) is truncated (its header is incomplete)") }
        var reader = ByteReader(file, from: Self.magic.count)
        guard let version = reader.readUInt16() else { throw .corrupted("\(path) is truncated (its header is incomplete)") }
        guard version == Self.currentVersion else {
            throw .corrupted("\(path) uses store format version \(version); this TokenKit reads version \(Self.currentVersion)")
        }
        guard file.count >= Self.byteCount else { throw .corrupted("\(path) is truncated (its header is incomplete)") }
        let digest = (try? SHA256Digest.hash(Array(file[0..<Self.digestOffset]))) ?? []
        guard digest == Array(file[Self.digestOffset..<Self.byteCount]) else {
            throw .corrupted("\(path) is damaged or was modified: its header checksum does not match")
        }
        guard let kindByte = reader.readUInt8(), let kind = KeyKind(rawValue: kindByte),
              let logN = reader.readUInt8(), let r = reader.readUInt32(), let p = reader.readUInt32(),
              let salt = reader.read(Self.saltByteCount), let nonce = reader.read(AESGCM.nonceByteCount),
              let length = reader.readUInt64(), let keyCheck = reader.read(Self.keyCheckByteCount)
        else { throw .corrupted("\(path) has an unknown key kind in its header") }
        keyKind = kind
        scrypt = Scrypt.Parameters(logN: logN, r: r, p: p)
        if kind == .scrypt {
            do { try scrypt.validate() } catch {
                throw .corrupted("\(path) has unacceptable key-derivation parameters in its header: \(error.message)")
            }
        }
        self.salt = salt
        self.nonce = nonce
        ciphertextLength = length
        self.keyCheck = keyCheck
        // Compared by subtraction: the length field is attacker-controlled, and adding to it
        // could overflow (a trap) for values near 2^64.
        let available = UInt64(file.count - Self.byteCount)
        let tag = UInt64(AESGCM.tagByteCount)
        guard length <= available, available - length >= tag else {
            let (expected, overflow) = UInt64(Self.byteCount).addingReportingOverflow(length)
            throw .corrupted(overflow || expected > UInt64.max - tag
                ? "\(path) is truncated or damaged: its header announces an impossible ciphertext length (\(length) bytes)"
                : "\(path) is truncated: expected \(expected + tag) bytes, found \(file.count)")
        }
        guard available - length == tag else {
            throw .corrupted("\(path) has \(available - length - tag) unexpected trailing bytes")
        }
    }

    init(keyKind: KeyKind, scrypt: Scrypt.Parameters, salt: [UInt8], nonce: [UInt8], ciphertextLength: UInt64, keyCheck: [UInt8]) {
        self.keyKind = keyKind
        self.scrypt = scrypt
        self.salt = salt
        self.nonce = nonce
        self.ciphertextLength = ciphertextLength
        self.keyCheck = keyCheck
    }
}

/// Reads big-endian integers and byte runs, returning `nil` past the end (never trapping).
struct ByteReader {
    private let bytes: [UInt8]
    private(set) var offset: Int

    init(_ bytes: [UInt8], from offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    mutating func read(_ count: Int) -> [UInt8]? {
        guard count >= 0, bytes.count - offset >= count else { return nil }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    mutating func readUInt8() -> UInt8? { read(1)?.first }
    mutating func readUInt16() -> UInt16? { read(2).map { UInt16(bigEndianBytes: $0) } }
    mutating func readUInt32() -> UInt32? { read(4).map { UInt32(bigEndianBytes: $0) } }
    mutating func readUInt64() -> UInt64? { read(8).map { UInt64(bigEndianBytes: $0) } }
}

extension FixedWidthInteger {
    init(bigEndianBytes bytes: [UInt8]) {
        self = bytes.reduce(0) { ($0 << 8) | Self($1) }
    }
}

extension Array where Element == UInt8 {
    mutating func appendBigEndian<T: FixedWidthInteger>(_ value: T) {
        for shift in stride(from: T.bitWidth - 8, through: 0, by: -8) {
            append(UInt8(truncatingIfNeeded: value >> shift))
        }
    }
}
