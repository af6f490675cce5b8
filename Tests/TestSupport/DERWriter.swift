/// A minimal DER writer for crafting hostile keys and certificates in tests (the library
/// refuses to build them, so tests assemble the bytes themselves).
public enum DERWriter {
    public static func length(_ n: Int) -> [UInt8] {
        if n < 0x80 { return [UInt8(n)] }
        var bytes: [UInt8] = []
        var rest = n
        while rest > 0 { bytes.insert(UInt8(rest & 0xFF), at: 0); rest >>= 8 }
        return [0x80 | UInt8(bytes.count)] + bytes
    }

    public static func tlv(_ tag: UInt8, _ body: [UInt8]) -> [UInt8] { [tag] + length(body.count) + body }
    public static func sequence(_ parts: [UInt8]...) -> [UInt8] { tlv(0x30, parts.flatMap { $0 }) }
    public static func set(_ parts: [UInt8]...) -> [UInt8] { tlv(0x31, parts.flatMap { $0 }) }

    /// An unsigned big-endian integer (a zero byte is added when the top bit is set).
    public static func integer(_ magnitude: [UInt8]) -> [UInt8] {
        var bytes = Array(magnitude.drop { $0 == 0 })
        if bytes.isEmpty || bytes[0] & 0x80 != 0 { bytes.insert(0, at: 0) }
        return tlv(0x02, bytes)
    }

    public static func bitString(_ bytes: [UInt8]) -> [UInt8] { tlv(0x03, [0] + bytes) }
    public static let null: [UInt8] = [0x05, 0x00]
    public static let rsaEncryption: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01]
    public static let sha256WithRSA: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x0B]

    /// PKCS#1 RSAPublicKey.
    public static func rsaPublicKey(n: [UInt8], e: [UInt8]) -> [UInt8] { sequence(integer(n), integer(e)) }

    /// SubjectPublicKeyInfo around a PKCS#1 RSA key.
    public static func rsaSPKI(n: [UInt8], e: [UInt8]) -> [UInt8] {
        sequence(sequence(rsaEncryption, null), bitString(rsaPublicKey(n: n, e: e)))
    }

    /// An object identifier's DER (tag, length, the encoded arcs given as bytes).
    public static func oid(_ encodedArcs: [UInt8]) -> [UInt8] { tlv(0x06, encodedArcs) }

    /// SubjectPublicKeyInfo of an Ed25519 (`ed448: false`, OID 1.3.101.112) or Ed448 (1.3.101.113)
    /// public key: RFC 8410 §4, the encoded point as it is, whatever it holds.
    public static func edwardsSPKI(ed448: Bool, point: [UInt8]) -> [UInt8] {
        sequence(sequence(oid([0x2B, 0x65, ed448 ? 0x71 : 0x70])), bitString(point))
    }

    /// A PKCS#8 v2 (OneAsymmetricKey, RFC 5958) Edwards private key `seed` that also carries
    /// `publicKey` ([1] IMPLICIT BIT STRING): a key file claiming any public half.
    public static func edwardsPKCS8(ed448: Bool, seed: [UInt8], publicKey: [UInt8]) -> [UInt8] {
        sequence(integer([1]), sequence(oid([0x2B, 0x65, ed448 ? 0x71 : 0x70])), tlv(0x04, tlv(0x04, seed)), tlv(0x81, [0] + publicKey))
    }

    /// A syntactically valid X.509 v3 certificate carrying `spki` (its signature is junk:
    /// TokenKit never validates certificates, it only takes their key).
    public static func certificate(spki: [UInt8]) -> [UInt8] {
        let name = sequence(set(sequence([0x06, 0x03, 0x55, 0x04, 0x03], tlv(0x0C, Array("test".utf8)))))
        let validity = sequence(tlv(0x17, Array("250101000000Z".utf8)), tlv(0x17, Array("350101000000Z".utf8)))
        let algorithm = sequence(sha256WithRSA, null)
        let tbs = sequence(tlv(0xA0, integer([2])), integer([1]), algorithm, name, validity, name, spki)
        return sequence(tbs, algorithm, bitString([UInt8](repeating: 0x55, count: 256)))
    }
}
