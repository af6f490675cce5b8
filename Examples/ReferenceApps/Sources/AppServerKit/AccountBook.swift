import Foundation

/// A signed-up account of the smaller reference servers (dashboard, PokeMe, DAM).
public struct Account: Sendable {
    /// The account id (the tokens' `sub`).
    public let id: String
    /// What the user signs in with (a username or an email).
    public let login: String
    /// The display name.
    public let name: String
    let passwordHash: String
}

/// Accounts in memory, with bcrypt password hashes.
///
/// Guarantees: logins are unique (case-insensitively); passwords are only kept hashed;
/// ``verify(login:password:)`` runs bcrypt even for an unknown login, so the answer time
/// does not tell which logins exist.
public actor AccountBook {
    private var accounts: [String: Account] = [:]
    private let hasher: PasswordHasher
    private let dummyHash: String

    /// An empty book hashing with `hasher`.
    public init(hasher: PasswordHasher = PasswordHasher()) {
        self.hasher = hasher
        self.dummyHash = (try? hasher.hash("no such account")) ?? ""
    }

    /// Adds an account; `nil` when the login is taken.
    public func register(login: String, name: String, password: String) throws(APIError) -> Account? {
        let normalized = login.lowercased()
        guard accounts[normalized] == nil else { return nil }
        let account = Account(id: UUID().uuidString.lowercased(), login: login, name: name, passwordHash: try hasher.hash(password))
        accounts[normalized] = account
        return account
    }

    /// The account with `login` if `password` is right, else `nil`.
    public func verify(login: String, password: String) -> Account? {
        guard let account = accounts[login.lowercased()] else {
            _ = hasher.verify(password, hash: dummyHash)
            return nil
        }
        return hasher.verify(password, hash: account.passwordHash) ? account : nil
    }

    /// The account with `id`, or `nil`.
    public func account(id: String) -> Account? {
        accounts.values.first { $0.id == id }
    }
}

/// Counts events (logins, refreshes, requests) for the servers' `/stats` endpoint.
public actor EventCounter {
    private var counts: [String: Int] = [:]

    /// No counts yet.
    public init() {}

    /// Adds one to `name`.
    public func add(_ name: String) { counts[name, default: 0] += 1 }
    /// The count of `name`.
    public func count(_ name: String) -> Int { counts[name] ?? 0 }
    /// Every count.
    public func all() -> [String: Int] { counts }
}
