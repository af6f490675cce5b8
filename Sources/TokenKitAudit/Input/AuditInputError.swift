/// An input could not be opened or read. The message names the input and the system's
/// reason; it never contains file content.
public struct AuditInputError: Error, Sendable, CustomStringConvertible {
    /// The input's name as given.
    public let source: String
    /// One line for people, e.g. "cannot open tokens.txt: No such file or directory".
    public let message: String

    /// Creates an error.
    public init(source: String, message: String) {
        self.source = source
        self.message = message
    }

    /// ``message``.
    public var description: String { message }
}
