import Testing
import TokenKitCrypto
import TokenKitTestSupport

/// PEM parsing is strict (RFC 7468): matching labels, valid base64, no encrypted keys, and
/// garbage is refused with a reason rather than read as something.
@Suite("Crypto: PEM documents")
struct PEMDocumentTests {
    static let der: [UInt8] = Array(0..<200).map { UInt8($0) }

    @Test("encode then parseAll gives back the label and bytes; blocks keep their order; text around them is ignored")
    func roundTrip() throws {
        let one = PEMDocument.encode(label: "PUBLIC KEY", der: Self.der)
        #expect(one.split(separator: "\n").dropFirst().dropLast().allSatisfy { $0.count <= 64 })
        let two = PEMDocument.encode(label: "CERTIFICATE", der: [1, 2, 3])
        let documents = try PEMDocument.parseAll("preamble text\n" + one + "between\n" + two + "trailer")
        #expect(documents.map(\.label) == ["PUBLIC KEY", "CERTIFICATE"])
        #expect(documents.map(\.der) == [Self.der, [1, 2, 3]])
        // CRLF line ends and indented lines are read the same way.
        let crlf = try PEMDocument.parseAll(one.split(separator: "\n").map { "  " + $0 }.joined(separator: "\r\n"))
        #expect(crlf.first?.der == Self.der)
    }

    @Test("Refused: no block, no END line, a mismatched END label, invalid or empty base64")
    func malformed() {
        let body = "AAECAwQFBgc="
        let cases: [(String, String)] = [
            ("", "no PEM block found"),
            ("just some text\nwith lines\n", "no PEM block found"),
            ("-----BEGIN PUBLIC KEY-----\n\(body)\n", "has no END line"),
            ("-----BEGIN PUBLIC KEY-----\n\(body)\n-----END PRIVATE KEY-----\n", "has no END line"),
            ("-----BEGIN PUBLIC KEY-----\nnot*base64\n-----END PUBLIC KEY-----\n", "not valid base64"),
            ("-----BEGIN PUBLIC KEY-----\n-----END PUBLIC KEY-----\n", "not valid base64"),
            ("-----BEGIN PUBLIC KEY-----\n\(body)\n-----END PUBLIC KEY-----\n-----BEGIN X-----\n!!\n-----END X-----\n", "not valid base64"),
        ]
        for (text, reason) in cases {
            #expect {
                try PEMDocument.parseAll(text)
            } throws: { error in
                (error as? CryptoError)?.message.contains(reason) == true
            }
        }
    }

    @Test("Encrypted PEM is refused with its own message, in both spellings")
    func encrypted() {
        let legacy = "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,00\n\nAAECAwQFBgc=\n-----END RSA PRIVATE KEY-----\n"
        let pkcs8 = PEMDocument.encode(label: "ENCRYPTED PRIVATE KEY", der: [1, 2, 3])
        for text in [legacy, pkcs8] {
            #expect {
                try PEMDocument.parseAll(text)
            } throws: { error in
                (error as? CryptoError)?.message == "encrypted PEM keys are not supported; decrypt the key first"
            }
        }
    }

    @Test("Random text around BEGIN/END lines never crashes, and what it accepts round-trips")
    func garbage() {
        var random = SplitMix64(seed: 0x5EED)
        func next() -> UInt64 { random.next() }
        let alphabet = Array("ABCxyz019+/=-: \n\r\t-----BEGIN END KEY".utf8)
        for _ in 0..<500 {
            let noise = String(decoding: (0..<Int(next() % 300)).map { _ in alphabet[Int(next() % UInt64(alphabet.count))] }, as: UTF8.self)
            let text = Bool(next() % 2 == 0) ? noise : noise + "\n" + PEMDocument.encode(label: "X", der: [9, 9]) + noise
            // Whatever is accepted is a real block: armouring it again reads back the same.
            if let documents = try? PEMDocument.parseAll(text) {
                for document in documents {
                    let again = try? PEMDocument.parseAll(PEMDocument.encode(label: document.label, der: document.der))
                    #expect(again?.count == 1 && again?.first?.label == document.label && again?.first?.der == document.der, "\(text)")
                }
            }
        }
    }
}
