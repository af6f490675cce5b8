#if Postgres
import TokenKitStore

/// The credential table's name, validated as a plain SQL identifier so it can be spliced
/// into statements safely (it is also double-quoted there).
///
/// Guarantees: 1 to 50 characters from `a-z`, `0-9` and `_`, not starting with a digit (so
/// that the `_keys` companion table also fits PostgreSQL's 63-byte limit and no quoting or
/// case-folding surprise can occur). Does not: accept a schema prefix; choose the schema with
/// the user's `search_path`.
public struct PostgresTableName: Sendable, Hashable, CustomStringConvertible {
    /// The validated name.
    public let rawValue: String

    /// The default, `tokenkit_credentials`.
    public static let standard = PostgresTableName(unchecked: "tokenkit_credentials")

    /// Validates `name`; throws ``TokenStoreError/Code/backend`` naming the rule it breaks.
    public init(_ name: String) throws(TokenStoreError) {
        let bytes = Array(name.utf8)
        guard (1...50).contains(bytes.count) else { throw .backend("the table name must be 1 to 50 characters") }
        let allowed = bytes.allSatisfy { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "_") }
        guard allowed, let first = bytes.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else {
            throw .backend("the table name may hold only a-z, 0-9 and _, and must not start with a digit")
        }
        rawValue = name
    }

    private init(unchecked: String) { rawValue = unchecked }

    /// `"name"`, for SQL.
    var quoted: String { "\"\(rawValue)\"" }
    /// The companion table holding the key-derivation salt: `"name_keys"`.
    var keysQuoted: String { "\"\(rawValue)_keys\"" }

    public var description: String { rawValue }
}
#endif
