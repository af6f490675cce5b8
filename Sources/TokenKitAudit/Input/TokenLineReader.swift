#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads one token a line from a file descriptor with large `read(2)` calls, in constant
/// memory.
///
/// Line rules: `\n` ends a line and a trailing `\r` is removed (CRLF input); spaces and
/// tabs around the token are removed; empty lines and lines whose first non-blank byte is
/// `#` are skipped but still counted, so line numbers match the file. A last line without
/// `\n` is read. Bytes are passed on as they are (invalid UTF-8 included: the auditor
/// reports such lines malformed). A line longer than the buffer is not kept: it becomes an
/// ``AuditBatch/Entry/unreadable`` entry and the reader skips to the next line.
///
/// Not thread-safe: one reader per input, used by one task at a time.
public final class TokenLineReader: AuditInput {
    /// The input's name as given.
    public let source: String
    private let fd: Int32
    private let ownsDescriptor: Bool
    private let buffer: UnsafeMutableBufferPointer<UInt8>
    private var start = 0
    private var end = 0
    private var atEOF = false
    private var lineNumber = 0
    private var skippingLongLine = false

    /// Opens `path` for reading (`-` means standard input, which is not closed afterwards).
    /// Throws when the file cannot be opened or is a directory.
    public convenience init(path: String, bufferSize: Int = 1 << 20) throws(AuditInputError) {
        if path == "-" {
            self.init(fileDescriptor: 0, source: "-", closeOnDeinit: false, bufferSize: bufferSize)
            return
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw AuditInputError(source: path, message: "cannot open \(path): \(Self.systemError())")
        }
        var info = stat()
        if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            close(fd)
            throw AuditInputError(source: path, message: "cannot read \(path): Is a directory")
        }
        self.init(fileDescriptor: fd, source: path, closeOnDeinit: true, bufferSize: bufferSize)
    }

    /// Reads from an open descriptor, closing it on deinit when `closeOnDeinit`. The buffer
    /// (at least 64 KiB) bounds the longest line kept.
    public init(fileDescriptor: Int32, source: String, closeOnDeinit: Bool, bufferSize: Int = 1 << 20) {
        self.fd = fileDescriptor
        self.source = source
        self.ownsDescriptor = closeOnDeinit
        buffer = .allocate(capacity: max(bufferSize, 1 << 16))
    }

    deinit {
        buffer.deallocate()
        if ownsDescriptor { close(fd) }
    }

    /// The next batch of at most `maxTokens` tokens, or `nil` at the end of the input.
    public func nextBatch(maxTokens: Int) throws(AuditInputError) -> AuditBatch? {
        var batch = AuditBatch(source: source, capacity: maxTokens)
        while batch.count < max(1, maxTokens) {
            if let newline = findNewline() {
                takeLine(upTo: newline, into: &batch)
                start = newline + 1
                continue
            }
            if atEOF {
                if start < end { takeLine(upTo: end, into: &batch) }
                start = end
                break
            }
            try fill(into: &batch)
        }
        return batch.count == 0 ? nil : batch
    }

    private func findNewline() -> Int? {
        guard start < end, let base = buffer.baseAddress else { return nil }
        guard let hit = memchr(base + start, Int32(UInt8(ascii: "\n")), end - start) else { return nil }
        return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
    }

    /// Makes room and reads more bytes; marks EOF; handles a line longer than the buffer.
    private func fill(into batch: inout AuditBatch) throws(AuditInputError) {
        if start > 0 {
            let pending = end - start
            if pending > 0, let base = buffer.baseAddress { memmove(base, base + start, pending) }
            start = 0
            end = pending
        }
        if end == buffer.count {
            if !skippingLongLine {
                lineNumber += 1
                batch.appendUnreadable(line: lineNumber, reason: "the line is longer than \(buffer.count) bytes")
                skippingLongLine = true
            }
            start = 0
            end = 0
        }
        while true {
            let n = read(fd, buffer.baseAddress.map { $0 + end }, buffer.count - end)
            if n > 0 { end += n; return }
            if n == 0 { atEOF = true; return }
            if errno == EINTR { continue }
            throw AuditInputError(source: source, message: "cannot read \(source): \(Self.systemError())")
        }
    }

    /// Handles the line in `buffer[start..<lineEnd]`.
    private func takeLine(upTo lineEnd: Int, into batch: inout AuditBatch) {
        if skippingLongLine {
            skippingLongLine = false
            return
        }
        lineNumber += 1
        var first = start, last = lineEnd
        while last > first, Self.isBlank(buffer[last - 1]) { last -= 1 }
        while first < last, Self.isBlank(buffer[first]) { first += 1 }
        guard first < last, buffer[first] != UInt8(ascii: "#") else { return }
        batch.append(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: buffer[first..<last])), line: lineNumber)
    }

    /// Space, tab and CR (so `\r\n` endings and stray `\r` are removed).
    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0D
    }

    private static func systemError() -> String {
        String(cString: strerror(errno))
    }
}
