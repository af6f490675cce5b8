#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the audit needs to know about the terminal.
enum Terminal {
    /// Whether `fd` is a terminal.
    static func isTTY(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    /// Whether colour may be used on `fd`: it is a terminal and `NO_COLOR` is unset or
    /// empty (https://no-color.org).
    static func allowsColour(_ fd: Int32) -> Bool {
        guard isTTY(fd) else { return false }
        if let value = getenv("NO_COLOR"), value.pointee != 0 { return false }
        return true
    }

    /// Writes `text` to standard error, unbuffered.
    static func writeToStandardError(_ text: String) {
        var text = text
        text.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = write(2, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
                if n > 0 { offset += n } else if n < 0 && errno == EINTR { continue } else { return }
            }
        }
    }
}
