import Foundation

/// One issued refresh token, as the server keeps it: never the token itself, only its id
/// and a salted hash of its secret part.
public struct RefreshTokenRecord: Sendable, Equatable {
    /// The lookup id (the token's part before the dot).
    public var id: String
    /// The rotation family: every token refreshed from one sign-in shares it.
    public var family: String
    /// The account id.
    public var subject: String
    /// The account's role.
    public var role: String
    /// A bcrypt hash of the secret part.
    public var secretHash: String
    /// When the token stops being accepted.
    public var expiresAt: Date
    /// Whether it was already exchanged (a second use is a reuse).
    public var used: Bool
    /// Whether its family was revoked (logout or reuse).
    public var revoked: Bool

    /// Creates a record.
    public init(id: String, family: String, subject: String, role: String, secretHash: String, expiresAt: Date, used: Bool = false, revoked: Bool = false) {
        self.id = id
        self.family = family
        self.subject = subject
        self.role = role
        self.secretHash = secretHash
        self.expiresAt = expiresAt
        self.used = used
        self.revoked = revoked
    }
}

/// Where a server keeps its refresh-token records (memory, or a database).
///
/// Conformers must make ``markUsed(id:)`` atomic: of two concurrent calls for one id,
/// exactly one returns `true`.
public protocol RefreshTokenRecords: Sendable {
    /// Stores a new record.
    func insert(_ record: RefreshTokenRecord) async throws
    /// The record with `id`, or `nil`.
    func find(id: String) async throws -> RefreshTokenRecord?
    /// Marks the record used if it is unused and not revoked; `true` when this call did so.
    func markUsed(id: String) async throws -> Bool
    /// Revokes every record of `family`.
    func revokeFamily(_ family: String) async throws
}

/// Refresh-token records in memory: gone when the process ends.
public actor MemoryRefreshTokenRecords: RefreshTokenRecords {
    private var records: [String: RefreshTokenRecord] = [:]

    /// An empty set of records.
    public init() {}

    /// Stores a new record.
    public func insert(_ record: RefreshTokenRecord) { records[record.id] = record }
    /// The record with `id`, or `nil`.
    public func find(id: String) -> RefreshTokenRecord? { records[id] }
    /// Marks the record used if it is unused and not revoked.
    public func markUsed(id: String) -> Bool {
        guard var record = records[id], !record.used, !record.revoked else { return false }
        record.used = true
        records[id] = record
        return true
    }
    /// Revokes every record of `family`.
    public func revokeFamily(_ family: String) {
        for (id, record) in records where record.family == family { records[id]?.revoked = true }
    }
}
