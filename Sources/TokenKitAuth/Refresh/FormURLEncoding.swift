/// `application/x-www-form-urlencoded` serialization (WHATWG URL §5.2, as RFC 6749
/// Appendix B uses it): `A-Z a-z 0-9 * - . _` stay, space becomes `+`, every other UTF-8
/// byte becomes `%XX` (uppercase hex).
enum FormURLEncoding {
    /// Encodes one name or value.
    static func encode(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, 0x2A, 0x2D, 0x2E, 0x5F:
                out.unicodeScalars.append(Unicode.Scalar(byte))
            case 0x20:
                out += "+"
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                out.unicodeScalars.append("%")
                out.unicodeScalars.append(hex[Int(byte >> 4)])
                out.unicodeScalars.append(hex[Int(byte & 0x0F)])
            }
        }
        return out
    }

    /// Encodes `pairs` as `name=value&name=value`, in order.
    static func encode(_ pairs: [(String, String)]) -> String {
        pairs.map { "\(encode($0.0))=\(encode($0.1))" }.joined(separator: "&")
    }
}
