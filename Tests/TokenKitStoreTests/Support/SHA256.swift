import Foundation
import TokenKitCrypto

/// SHA-256 for tests that forge headers (through the wrapper: tests do not call OpenSSL).
func sha256(_ bytes: [UInt8]) throws -> [UInt8] {
    try SHA256Digest.hash(bytes)
}
