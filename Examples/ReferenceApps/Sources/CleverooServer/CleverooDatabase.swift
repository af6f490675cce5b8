import AppServerKit
import Foundation
import GRDB

/// A parent account as the API shows it.
struct Parent: Sendable {
    var id: String
    var email: String
    var phone: String
    var avatar: String
    var passwordHash: String

    /// `{"id","email","phone","avatar"}`.
    var fields: [String: JSONField] {
        ["id": .string(id), "email": .string(email), "phone": .string(phone), "avatar": .string(avatar)]
    }
}

/// A child account as the API shows it.
struct Child: Sendable {
    var id: String
    var parentID: String
    var username: String
    var age: Int
    var gender: String
    var avatar: String

    /// `{"id","username","age","gender","avatar","parent"}`.
    var fields: [String: JSONField] {
        ["id": .string(id), "username": .string(username), "age": .int(age), "gender": .string(gender),
         "avatar": .string(avatar), "parent": .string(parentID)]
    }
}

/// Cleveroo's data in SQLite (through GRDB): a file with `--database`, else memory.
///
/// Guarantees: emails are unique case-insensitively, child usernames are unique; refresh
/// tokens are kept as records (id, family, bcrypt hash of the secret), never in clear;
/// ``markUsed(id:)`` is one conditional UPDATE, so concurrent uses cannot both win.
final class CleverooDatabase: RefreshTokenRecords {
    private let queue: DatabaseQueue

    /// Opens (creating and migrating) the database at `path`, or an in-memory one.
    init(path: String?) throws {
        queue = try path.map { try DatabaseQueue(path: $0) } ?? DatabaseQueue()
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE parent (id TEXT PRIMARY KEY, email TEXT NOT NULL UNIQUE COLLATE NOCASE,
                    phone TEXT NOT NULL, avatar TEXT NOT NULL, password_hash TEXT NOT NULL);
                CREATE TABLE child (id TEXT PRIMARY KEY, parent_id TEXT NOT NULL REFERENCES parent(id),
                    username TEXT NOT NULL UNIQUE, age INTEGER NOT NULL, gender TEXT NOT NULL,
                    avatar TEXT NOT NULL, created INTEGER NOT NULL);
                CREATE TABLE refresh_token (id TEXT PRIMARY KEY, family TEXT NOT NULL, subject TEXT NOT NULL,
                    role TEXT NOT NULL, secret_hash TEXT NOT NULL, expires_at REAL NOT NULL,
                    used INTEGER NOT NULL DEFAULT 0, revoked INTEGER NOT NULL DEFAULT 0);
                CREATE INDEX refresh_token_family ON refresh_token(family);
                """)
        }
        try migrator.migrate(queue)
    }

    // MARK: Parents

    /// Inserts `parent`; `false` when the email is taken.
    func insert(_ parent: Parent) async throws -> Bool {
        try await queue.write { db in
            if try Bool.fetchOne(db, sql: "SELECT 1 FROM parent WHERE email = ?", arguments: [parent.email]) != nil { return false }
            try db.execute(
                sql: "INSERT INTO parent (id, email, phone, avatar, password_hash) VALUES (?, ?, ?, ?, ?)",
                arguments: [parent.id, parent.email, parent.phone, parent.avatar, parent.passwordHash])
            return true
        }
    }

    /// The parent with `email` (case-insensitive), or `nil`.
    func parent(email: String) async throws -> Parent? {
        try await queue.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM parent WHERE email = ?", arguments: [email]).map(Self.parent)
        }
    }

    /// The parent with `id`, or `nil`.
    func parent(id: String) async throws -> Parent? {
        try await queue.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM parent WHERE id = ?", arguments: [id]).map(Self.parent)
        }
    }

    private static func parent(_ row: Row) -> Parent {
        Parent(id: row["id"], email: row["email"], phone: row["phone"], avatar: row["avatar"], passwordHash: row["password_hash"])
    }

    // MARK: Children

    /// Inserts `child`; `false` when the username is taken.
    func insert(_ child: Child) async throws -> Bool {
        try await queue.write { db in
            if try Bool.fetchOne(db, sql: "SELECT 1 FROM child WHERE username = ?", arguments: [child.username]) != nil { return false }
            try db.execute(
                sql: "INSERT INTO child (id, parent_id, username, age, gender, avatar, created) VALUES (?, ?, ?, ?, ?, ?, (SELECT COUNT(*) FROM child))",
                arguments: [child.id, child.parentID, child.username, child.age, child.gender, child.avatar])
            return true
        }
    }

    /// The child with `username`, or `nil`.
    func child(username: String) async throws -> Child? {
        try await queue.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM child WHERE username = ?", arguments: [username]).map(Self.child)
        }
    }

    /// The children of `parentID`, in the order they were added.
    func children(of parentID: String) async throws -> [Child] {
        try await queue.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM child WHERE parent_id = ? ORDER BY created", arguments: [parentID]).map(Self.child)
        }
    }

    private static func child(_ row: Row) -> Child {
        Child(id: row["id"], parentID: row["parent_id"], username: row["username"], age: row["age"], gender: row["gender"], avatar: row["avatar"])
    }

    // MARK: RefreshTokenRecords

    func insert(_ record: RefreshTokenRecord) async throws {
        try await queue.write { db in
            try db.execute(
                sql: "INSERT INTO refresh_token (id, family, subject, role, secret_hash, expires_at, used, revoked) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                arguments: [record.id, record.family, record.subject, record.role, record.secretHash,
                            record.expiresAt.timeIntervalSince1970, record.used, record.revoked])
        }
    }

    func find(id: String) async throws -> RefreshTokenRecord? {
        try await queue.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM refresh_token WHERE id = ?", arguments: [id]).map { row in
                RefreshTokenRecord(
                    id: row["id"], family: row["family"], subject: row["subject"], role: row["role"],
                    secretHash: row["secret_hash"], expiresAt: Date(timeIntervalSince1970: row["expires_at"]),
                    used: row["used"], revoked: row["revoked"])
            }
        }
    }

    func markUsed(id: String) async throws -> Bool {
        try await queue.write { db in
            try db.execute(sql: "UPDATE refresh_token SET used = 1 WHERE id = ? AND used = 0 AND revoked = 0", arguments: [id])
            return db.changesCount == 1
        }
    }

    func revokeFamily(_ family: String) async throws {
        try await queue.write { db in
            try db.execute(sql: "UPDATE refresh_token SET revoked = 1 WHERE family = ?", arguments: [family])
        }
    }
}
