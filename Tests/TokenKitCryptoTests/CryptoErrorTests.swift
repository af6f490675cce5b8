import Testing
import TokenKitCrypto

/// The wrapper's one error type keeps OpenSSL's reasons (drained from the queue, which is left
/// empty) next to TokenKit's own message.
@Suite("Crypto: CryptoError keeps OpenSSL's reasons")
struct CryptoErrorTests {
    @Test("A DER decoding failure carries TokenKit's message and OpenSSL's reasons, and empties the queue")
    func decodingFailureKeepsReasons() {
        let garbage: [UInt8] = [0x30, 0x82, 0x01, 0x00, 0x02, 0x01]
        do {
            _ = try PKey(subjectPublicKeyInfo: garbage)
            Issue.record("garbage DER loaded as a public key")
        } catch {
            #expect(error.message == "malformed public key (SPKI)")
            #expect(!error.openSSLReasons.isEmpty)
            #expect(error.description.hasPrefix("malformed public key (SPKI) ("))
            #expect(error.openSSLReasons.allSatisfy { error.description.contains($0) })
            #expect(OpenSSLErrorQueue.drain().isEmpty)
        }
    }

    @Test("Trailing bytes after a valid key are refused with a count, and nothing is left on the queue")
    func trailingBytes() throws {
        let der = try PKey.generate(.ed25519).subjectPublicKeyInfoDER()
        #expect(throws: Never.self) { try PKey(subjectPublicKeyInfo: der) }
        do {
            _ = try PKey(subjectPublicKeyInfo: der + [0, 0, 0])
            Issue.record("a key with trailing bytes loaded")
        } catch {
            #expect(error.message.hasSuffix(": 3 trailing bytes"))
            #expect(OpenSSLErrorQueue.drain().isEmpty)
        }
    }

    @Test("An error built with no OpenSSL failure has no reasons and its description is the message")
    func noReasons() {
        OpenSSLErrorQueue.clear()
        let error = CryptoError.openSSL("nothing failed in OpenSSL")
        #expect(error.openSSLReasons.isEmpty)
        #expect(error.description == "nothing failed in OpenSSL")
        #expect(CryptoError("a", openSSLReasons: ["r1", "r2"]).description == "a (r1; r2)")
    }
}
