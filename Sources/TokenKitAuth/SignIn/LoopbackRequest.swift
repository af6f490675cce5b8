internal import TokenKitPrimitives

/// One request received by the loopback listener, reduced to what it needs: a `GET` of a
/// path with an optional query. Anything else is ``Failure/badRequest``.
struct LoopbackRequest: Sendable, Equatable {
    /// The path, without the query.
    let path: String
    /// The query, without the `?` (empty when none).
    let query: String

    /// The most a request head may take (request line and headers).
    static let maximumHeadBytes = 16 * 1024

    /// Why a request is not served.
    enum Failure: Error, Equatable {
        case badRequest, notFound
    }

    /// Whether `bytes` holds a complete head (up to the blank line that ends it).
    static func isComplete(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 4 else { return false }
        for i in 0...(bytes.count - 4) where bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 {
            return true
        }
        return false
    }

    /// Parses the request line of a complete head: `GET <target> HTTP/x`.
    static func parse(_ bytes: [UInt8]) -> Result<LoopbackRequest, Failure> {
        guard let lineEnd = bytes.firstIndex(of: 13) ?? bytes.firstIndex(of: 10),
              let line = String(validating: bytes[..<lineEnd], as: UTF8.self)
        else { return .failure(.badRequest) }
        let parts = line.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[2].hasPrefix("HTTP/"), String(parts[0]).isByteIdentical(to: "GET") else { return .failure(.badRequest) }
        let target = parts[1].split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        guard let path = target.first, path.hasPrefix("/") else { return .failure(.badRequest) }
        return .success(LoopbackRequest(path: String(path), query: target.count > 1 ? String(target[1]) : ""))
    }
}

/// Decodes an `application/x-www-form-urlencoded` query (`+` is a space, `%XX` a byte).
enum QueryDecoding {
    /// The parameters and the names seen more than once; `nil` for bad escapes or non-UTF-8.
    static func decode(_ query: String) -> (parameters: [String: String], duplicated: Set<String>)? {
        var parameters: [String: String] = [:]
        var duplicated: Set<String> = []
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let halves = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = unescape(halves[0]), let value = unescape(halves.count > 1 ? halves[1] : "") else { return nil }
            if parameters[name] != nil { duplicated.insert(name) }
            parameters[name] = value
        }
        return (parameters, duplicated)
    }

    static func unescape(_ text: Substring) -> String? {
        var out: [UInt8] = []
        var bytes = text.utf8.makeIterator()
        while let byte = bytes.next() {
            switch byte {
            case UInt8(ascii: "+"): out.append(0x20)
            case UInt8(ascii: "%"):
                guard let high = bytes.next().flatMap(hex), let low = bytes.next().flatMap(hex) else { return nil }
                out.append(high << 4 | low)
            default: out.append(byte)
            }
        }
        return String(validating: out, as: UTF8.self)
    }

    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x37
        case 0x61...0x66: byte - 0x57
        default: nil
        }
    }
}
