import Foundation
import TokenKitStore

/// A change of an ``AuthProvider``'s credential, as seen through ``AuthProvider/events()``.
///
/// Carries no token, only what happened and when the new access token expires.
public struct AuthEvent: Sendable, Hashable, CustomStringConvertible {
    /// What happened; compare with the static members.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        /// The stable name, e.g. `"refreshed"`.
        public let rawValue: String
        init(_ rawValue: String) { self.rawValue = rawValue }
        /// The same as ``rawValue``.
        public var description: String { rawValue }

        /// A token set was stored through ``AuthProvider/signIn(_:)``.
        public static let signedIn = Kind("signed-in")
        /// A refresh stored a new token set (also reported when another process refreshed
        /// and this provider picked up its result).
        public static let refreshed = Kind("refreshed")
        /// The credential is gone or can no longer be used, so the user must sign in:
        /// ``AuthProvider/signOut()``, a rejected refresh token (the credential is deleted),
        /// an expired or rejected token with no refresh token (the credential is kept), or
        /// the store found empty after it had held a credential.
        public static let signedOut = Kind("signed-out")
    }

    /// What happened.
    public let kind: Kind
    /// The credential concerned.
    public let key: CredentialKey
    /// When the current access token expires, if known (for ``Kind/signedIn`` and ``Kind/refreshed``).
    public let expiresAt: Date?

    /// Creates an event.
    public init(kind: Kind, key: CredentialKey, expiresAt: Date?) {
        self.kind = kind
        self.key = key
        self.expiresAt = expiresAt
    }

    /// `kind key`.
    public var description: String { "\(kind) \(key)" }
}
