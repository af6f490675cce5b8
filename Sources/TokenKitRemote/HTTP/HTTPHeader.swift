internal import TokenKitPrimitives

/// One HTTP header field. Names compare case-insensitively through the lookup helpers.
public struct HTTPHeader: Sendable, Hashable {
    /// The field name, e.g. `"Content-Type"`.
    public var name: String
    /// The field value.
    public var value: String

    /// Creates a header field.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

extension Array where Element == HTTPHeader {
    /// The first value of the field called `name` (case-insensitive), if any.
    public func first(named name: String) -> String? {
        first { $0.name.isASCIICaseInsensitiveEqual(to: name) }?.value
    }

    /// Replaces every field called `name` (case-insensitive) with one field `name: value`.
    public mutating func replaceAll(named name: String, with value: String) {
        removeAll { $0.name.isASCIICaseInsensitiveEqual(to: name) }
        append(HTTPHeader(name: name, value: value))
    }
}
