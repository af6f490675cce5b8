/// A minimal DER writer for crafting hostile keys and certificates in tests (the library
/// refuses to build them, so tests assemble the bytes themselves).
enum DERWriter {
    static func length(_ n: Int) -> [UInt8] {
        if n < 0x80 { return [UInt8(n)] }
        var bytes: [UInt8] = []
        var rest = n
        while rest > 0 { bytes.insert(UInt8(rest & 0xFF), at: 0); rest >>= 8 }
        return [0x80 | UInt8(bytes.count)] + bytes
    }

    static func tlv(_ tag: UInt8, _ body: [UInt8]) -> [UInt8] { [tag] + length(body.count) + body }
    static func sequence(_ parts: [UInt8]...) -> [UInt8] { tlv(0x30, parts.flatMap { $0 }) }
    static func set(_ parts: [UInt8]...) -> [UInt8] { tlv(0x31, parts.flatMap { $0 }) }

    /// An unsigned big-endian integer (a zero byte is added when the top bit is set).
    static func integer(_ magnitude: [UInt8]) -> [UInt8] {
        var bytes = Array(magnitude.drop { $0 == 0 })
        if bytes.isEmpty || bytes[0] & 0x80 != 0 { bytes.insert(0, at: 0) }
        return tlv(0x02, bytes)
    }

    static func bitString(_ bytes: [UInt8]) -> [UInt8] { tlv(0x03, [0] + bytes) }
    static let null: [UInt8] = [0x05, 0x00]
    static let rsaEncryption: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01]
    static let sha256WithRSA: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x0B]

    /// PKCS#1 RSAPublicKey.
    static func rsaPublicKey(n: [UInt8], e: [UInt8]) -> [UInt8] { sequence(integer(n), integer(e)) }

    /// SubjectPublicKeyInfo around a PKCS#1 RSA key.
    static func rsaSPKI(n: [UInt8], e: [UInt8]) -> [UInt8] {
        sequence(sequence(rsaEncryption, null), bitString(rsaPublicKey(n: n, e: e)))
    }

    /// A syntactically valid X.509 v3 certificate carrying `spki` (its signature is junk:
    /// TokenKit never validates certificates, it only takes their key).
    static func certificate(spki: [UInt8]) -> [UInt8] {
        let name = sequence(set(sequence([0x06, 0x03, 0x55, 0x04, 0x03], tlv(0x0C, Array("test".utf8)))))
        let validity = sequence(tlv(0x17, Array("250101000000Z".utf8)), tlv(0x17, Array("350101000000Z".utf8)))
        let algorithm = sequence(sha256WithRSA, null)
        let tbs = sequence(tlv(0xA0, integer([2])), integer([1]), algorithm, name, validity, name, spki)
        return sequence(tbs, algorithm, bitString([UInt8](repeating: 0x55, count: 256)))
    }
}
