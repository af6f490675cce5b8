/// A JWS header's `x5c` member (RFC 7515 §4.1.6): an array of standard base64 (not
/// base64url) DER certificates, leaf first.
///
/// Read strictly: a non-empty array of at most the policy's length, of strings in canonical
/// padded base64 (the standard alphabet, `=` padding only at the end, zero unused bits) —
/// decoded by the one base64url decoder after mapping the alphabet. Refusals are
/// ``JWTError/Code/certificateChain`` errors.
struct X5CHeaderChain {
    /// The entries as written (the cache key).
    let entries: [String]

    init(_ header: JWTHeader, maximumLength: Int) throws(JWTError) {
        guard let value = header.raw["x5c"] else { throw X5CVerifier.failure("the token's header has no \"x5c\"") }
        guard let array = value.arrayValue else { throw X5CVerifier.failure("\"x5c\" must be an array") }
        guard !array.isEmpty else { throw X5CVerifier.failure("\"x5c\" is empty") }
        guard array.count <= maximumLength else {
            throw X5CVerifier.failure("\"x5c\" holds \(array.count) certificates, more than the \(maximumLength) allowed")
        }
        var entries: [String] = []
        for (index, element) in array.enumerated() {
            guard let text = element.stringValue else { throw X5CVerifier.failure("\"x5c\" entry \(index + 1) is not a string") }
            entries.append(text)
        }
        self.entries = entries
    }

    /// The DER bytes of each entry.
    func derCertificates() throws(JWTError) -> [[UInt8]] {
        var out: [[UInt8]] = []
        for (index, entry) in entries.enumerated() {
            guard let der = Self.decodeStandardBase64(entry) else {
                throw X5CVerifier.failure("\"x5c\" entry \(index + 1) is not canonical standard base64")
            }
            out.append(der)
        }
        return out
    }

    /// Canonical padded standard base64, through ``Base64URL``'s decoder; `nil` otherwise.
    static func decodeStandardBase64(_ text: String) -> [UInt8]? {
        var bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count % 4 == 0 else { return nil }
        var padding = 0
        while padding < 2, bytes.last == UInt8(ascii: "=") {
            bytes.removeLast()
            padding += 1
        }
        for index in bytes.indices {
            switch bytes[index] {
            case UInt8(ascii: "+"): bytes[index] = UInt8(ascii: "-")
            case UInt8(ascii: "/"): bytes[index] = UInt8(ascii: "_")
            case UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "="): return nil
            default: break
            }
        }
        return bytes.withUnsafeBufferPointer { try? Base64URL.decode($0) }
    }
}
