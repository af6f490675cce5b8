/// A run of tokens from one input, stored back to back in one buffer (no allocation per
/// token), with the line number of each.
///
/// Guarantees: entries keep input order; a token's bytes are exactly the line's content
/// with the line terminator (`\n`, `\r\n`) and surrounding spaces/tabs removed.
public struct AuditBatch: Sendable {
    /// One token's place in ``bytes`` and in its input.
    public struct Entry: Sendable, Hashable {
        /// Offset of the token in ``AuditBatch/bytes``.
        public var offset: Int
        /// Length of the token in bytes.
        public var count: Int
        /// 1-based line number in the input.
        public var line: Int
        /// Why the line could not be kept whole (e.g. longer than the reader's buffer), or
        /// `nil`. Such an entry is reported malformed without being decoded.
        public var unreadable: String?
    }

    /// The input's name as given (`-` for stdin).
    public let source: String
    /// The tokens' bytes, back to back.
    public private(set) var bytes: [UInt8]
    /// The tokens, in input order.
    public private(set) var entries: [Entry]

    /// An empty batch for `source`.
    public init(source: String, capacity: Int = 0) {
        self.source = source
        bytes = []
        entries = []
        entries.reserveCapacity(capacity)
    }

    /// Number of tokens.
    public var count: Int { entries.count }

    /// Appends a token read from `line`.
    public mutating func append(_ token: UnsafeRawBufferPointer, line: Int) {
        entries.append(Entry(offset: bytes.count, count: token.count, line: line, unreadable: nil))
        bytes.append(contentsOf: token)
    }

    /// Appends a token given as a string (e.g. from a credential store).
    public mutating func append(_ token: String, line: Int) {
        var token = token
        token.withUTF8 { append(UnsafeRawBufferPointer($0), line: line) }
    }

    /// Appends a line that could not be read whole; it will be reported malformed.
    public mutating func appendUnreadable(line: Int, reason: String) {
        entries.append(Entry(offset: bytes.count, count: 0, line: line, unreadable: reason))
    }
}
