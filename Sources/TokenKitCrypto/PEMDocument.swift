import Foundation

/// One PEM block (RFC 7468): its label and the DER bytes it armours.
///
/// Parsing is strict: the BEGIN and END labels must match, the body must be valid base64
/// (line breaks and spaces are allowed, nothing else), and encrypted PEM
/// (`Proc-Type: 4,ENCRYPTED` or `ENCRYPTED PRIVATE KEY`) is refused with its own message.
package struct PEMDocument: Sendable {
    /// The label, e.g. `"PUBLIC KEY"`.
    package let label: String
    /// The decoded DER bytes.
    package let der: [UInt8]

    /// Every PEM block in `text`, in order. Throws when there is none or one is malformed.
    package static func parseAll(_ text: String) throws(CryptoError) -> [PEMDocument] {
        var documents: [PEMDocument] = []
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })[...]
        while let line = lines.popFirst() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("-----BEGIN "), trimmed.hasSuffix("-----") else { continue }
            let label = String(trimmed.dropFirst(11).dropLast(5))
            let end = "-----END \(label)-----"
            var body = ""
            var closed = false
            while let bodyLine = lines.popFirst() {
                let bodyTrimmed = bodyLine.trimmingCharacters(in: .whitespaces)
                if bodyTrimmed == end { closed = true; break }
                if bodyTrimmed.contains(":") {
                    if bodyTrimmed.hasPrefix("Proc-Type:") && bodyTrimmed.contains("ENCRYPTED") {
                        throw CryptoError("encrypted PEM keys are not supported; decrypt the key first")
                    }
                    continue  // other RFC 1421 headers carry nothing we use
                }
                body += bodyTrimmed
            }
            guard closed else { throw CryptoError("PEM block \"\(label)\" has no END line") }
            if label == "ENCRYPTED PRIVATE KEY" {
                throw CryptoError("encrypted PEM keys are not supported; decrypt the key first")
            }
            guard !body.isEmpty, let data = Data(base64Encoded: body) else {
                throw CryptoError("PEM block \"\(label)\" is not valid base64")
            }
            documents.append(PEMDocument(label: label, der: Array(data)))
        }
        guard !documents.isEmpty else { throw CryptoError("no PEM block found") }
        return documents
    }

    /// Armours `der` under `label`, 64 characters a line.
    package static func encode(label: String, der: [UInt8]) -> String {
        let base64 = Data(der).base64EncodedString()
        var out = "-----BEGIN \(label)-----\n"
        var index = base64.startIndex
        while index < base64.endIndex {
            let next = base64.index(index, offsetBy: 64, limitedBy: base64.endIndex) ?? base64.endIndex
            out += base64[index..<next] + "\n"
            index = next
        }
        return out + "-----END \(label)-----\n"
    }
}
