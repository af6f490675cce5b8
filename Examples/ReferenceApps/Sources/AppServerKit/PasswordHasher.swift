import Foundation
import HummingbirdBcrypt

/// Passwords as the servers store them: bcrypt (salted, deliberately slow).
///
/// Guarantees: the plain password is never stored or logged; ``verify(_:hash:)`` takes as
/// long for a wrong password as for a right one of the same hash. Does not: enforce a
/// password policy beyond "not empty" and bcrypt's 72-byte limit (longer is refused).
public struct PasswordHasher: Sendable {
    /// The bcrypt cost (log2 of the rounds).
    public let cost: UInt8

    /// A hasher with `cost` (default 10).
    public init(cost: UInt8 = 10) { self.cost = cost }

    /// The bcrypt hash of `password`; a 400 when it is longer than bcrypt can hash.
    public func hash(_ password: String) throws(APIError) -> String {
        guard password.utf8.count <= 72 else { throw .badRequest("password must be at most 72 bytes") }
        return Bcrypt.hash(password, cost: cost)
    }

    /// Whether `password` matches `hash`.
    public func verify(_ password: String, hash: String) -> Bool {
        password.utf8.count <= 72 && Bcrypt.verify(password, hash: hash)
    }
}
