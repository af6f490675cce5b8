import Dispatch
import Foundation
internal import TokenKitPrimitives
import TokenKitStore

/// A ``TokenStore`` in the desktop keyring, through the freedesktop Secret Service
/// (gnome-keyring, KeePassXC, KWallet's provider...) and libsecret.
///
/// Items use the schema `dev.tokenkit.Credential` in the default collection, with attributes
/// `service`, `account`, `kind`, `size`, `created`, `updated` and (token sets) `expires` —
/// never the secret — and a label "TokenKit: ACCOUNT @ SERVICE". The secret itself is the
/// item's value, so `secret-tool lookup service S account A` returns it too.
///
/// Guarantees:
/// - Every libsecret call runs on this store's serial dispatch queue (never the cooperative
///   pool) under a deadline (``Options/timeout``) that cancels it: a hung provider or a
///   pending prompt gives ``TokenStoreError/Code/timeout``, never a 50 s hang.
/// - A missing Secret Service is detected first, within about a second
///   (``TokenStoreError/Code/noSecretService``); a locked collection is reported as
///   ``TokenStoreError/Code/locked`` (never as "not found"); a dismissed unlock prompt as
///   ``TokenStoreError/Code/dismissed``.
/// - Writes (`save`, `delete`, `replace`) from TokenKit processes are serialized by an
///   exclusive `flock` on ``Options/lockFilePath``, so ``replace(_:expected:with:)`` is a
///   compare-and-swap among them. A write creates the new item before deleting older ones;
///   readers take the newest, so a crash in between leaves the new value visible.
///
/// Does not: serialize against other programs writing the same items without the lock
/// (e.g. `secret-tool store`), keep its lock across machines or users, or make a write
/// atomic in the daemon's own storage (that is the provider's job).
public final class SecretServiceStore: TokenStorePreflight {
    /// Deadlines, prompting and the cross-process lock.
    public struct Options: Sendable {
        /// The longest any one operation may take (default 5 s), apart from the time a prompt
        /// waits for a person (bounded by ``prompt``'s own timeout).
        public var timeout: Duration
        /// Whether the service may prompt (unlock the collection, confirm access to an item,
        /// create the default collection, confirm a delete), and for how long.
        public var prompt: UnlockPromptPolicy
        /// The lock file that serializes writers across processes.
        public var lockFilePath: String

        /// Whether a locked collection may be unlocked with a prompt (``prompt``'s `isAllowed`).
        public var allowsUnlockPrompt: Bool {
            get { prompt.isAllowed }
            set { prompt = newValue ? UnlockPromptPolicy(isAllowed: true, reason: "prompts are allowed by the options") : .disabled }
        }

        /// Options with an explicit lock file; prompts only with `allowsUnlockPrompt` (default
        /// `false`: a locked collection or item is reported as locked).
        public init(lockFilePath: String, timeout: Duration = .seconds(5), allowsUnlockPrompt: Bool = false) {
            self.lockFilePath = lockFilePath
            self.timeout = timeout
            self.prompt = .disabled
            self.allowsUnlockPrompt = allowsUnlockPrompt
        }

        /// The standard options: the lock file in `$XDG_RUNTIME_DIR/tokenkit/` (private to the
        /// user by the XDG spec), else `/tmp/tokenkit-UID/`; prompts where a person can answer
        /// them (``UnlockPromptPolicy/forEnvironment(_:timeout:)``). Reads only `environment`.
        public static func standard(environment: [String: String]) -> Options {
            let directory: String
            if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
                directory = "\(runtime)/tokenkit"
            } else {
                directory = "/tmp/tokenkit-\(geteuid())"
            }
            var options = Options(lockFilePath: "\(directory)/secret-service.lock")
            options.prompt = UnlockPromptPolicy.forEnvironment(environment)
            return options
        }
    }

    /// How to get a Secret Service when there is none, for error messages.
    public static let startHint =
        "start one (e.g. `gnome-keyring-daemon --start --components=secrets` in a D-Bus session, or log in to a desktop), or use the encrypted file backend"

    private let options: Options
    private let queue = DispatchQueue(label: "dev.tokenkit.secret-service")
    private let environment: [String: String]

    /// A store using the Secret Service on the session bus GLib finds through `environment`
    /// (pass `ProcessInfo.processInfo.environment`; libsecret itself reads the process's).
    /// Nothing is contacted until the first operation.
    public init(options: Options, environment: [String: String]) {
        self.options = options
        self.environment = environment
    }

    /// Always `"secret-service"`.
    public var backendName: String { "secret-service" }

    /// Stores `credential` under `key`, replacing any previous one.
    public func save(_ credential: Credential, for key: CredentialKey) async throws(TokenStoreError) {
        try await write(key) { (session, current) throws(TokenStoreError) -> Void in
            try Self.put(credential.stamped(previous: current?.credential), key: key, session: session, replacing: current)
        }
    }

    /// Returns the credential under `key`, or `nil` when there is none.
    public func load(_ key: CredentialKey) async throws(TokenStoreError) -> Credential? {
        try await run { session throws(TokenStoreError) in
            try Self.current(key, in: session)?.credential
        }
    }

    /// Deletes the credential under `key`; returns `false` when there was none.
    @discardableResult
    public func delete(_ key: CredentialKey) async throws(TokenStoreError) -> Bool {
        try await write(key) { (session, current) throws(TokenStoreError) -> Bool in
            guard let current else { return false }
            for item in current.all { try session.delete(item) }
            return true
        }
    }

    /// The accounts of `service`, sorted by name, from item attributes only (no secret is
    /// fetched from the service).
    public func accounts(service: String) async throws(TokenStoreError) -> [CredentialInfo] {
        try await run { session throws(TokenStoreError) in
            let items = try session.search(["service": service], loadSecrets: false)
            var newest: [ExactKey: SecretServiceItem] = [:]  // accounts by their exact bytes
            for item in items {
                guard let account = item.attributes["account"] else { continue }
                if let seen = newest[ExactKey(account)], seen.updated >= item.updated { continue }
                newest[ExactKey(account)] = item
            }
            return newest.map { ($0.key.text, $0.value) }.sorted { $0.0 < $1.0 }.map { account, item in
                let date = { (name: String) in item.attributes[name].flatMap(Double.init).map(Date.init(timeIntervalSince1970:)) }
                return CredentialInfo(
                    account: account, kind: Credential.Kind(rawValue: item.attributes["kind"] ?? "secret"),
                    size: item.attributes["size"].flatMap(Int.init) ?? 0,
                    createdAt: date("created"), updatedAt: date("updated"), expiresAt: date("expires"))
            }
        }
    }

    /// Compare-and-swap under the cross-process lock; see ``TokenStore/replace(_:expected:with:)``.
    public func replace(_ key: CredentialKey, expected: Credential?, with new: Credential?) async throws(TokenStoreError) -> Bool {
        try await write(key) { (session, current) throws(TokenStoreError) -> Bool in
            guard Credential.matches(stored: current?.credential, expected: expected) else { return false }
            if let new {
                try Self.put(new.stamped(previous: current?.credential), key: key, session: session, replacing: current)
            } else if let current {
                for item in current.all { try session.delete(item) }
            }
            return true
        }
    }

    /// Checks that a write could succeed now: a Secret Service answers, the default collection
    /// exists (or was created through a prompt) and is unlocked (or was unlocked through one),
    /// and the write lock can be taken. Writes nothing.
    public func checkWritable() async throws(TokenStoreError) {
        try await run(locked: true) { session throws(TokenStoreError) in
            _ = try session.search(["service": "dev.tokenkit.preflight"], loadSecrets: false)
        }
    }

    // MARK: - Plumbing

    /// What is stored under a key: the newest item's credential, and every item (duplicates
    /// left by a crash between create and delete, or by other writers).
    struct Current {
        let credential: Credential
        let all: [SecretServiceItem]
    }

    static func current(_ key: CredentialKey, in session: SecretServiceSession) throws(TokenStoreError) -> Current? {
        let items = try session.search(["service": key.service, "account": key.account], loadSecrets: true)
        guard let newest = items.max(by: { $0.updated < $1.updated }) else { return nil }
        guard let secret = newest.secret() else {
            throw .init(code: .locked, message: "the Secret Service did not return the secret (the item is locked)")
        }
        let date = { (name: String) in newest.attributes[name].flatMap(Double.init).map(Date.init(timeIntervalSince1970:)) }
        let credential = Credential(
            kind: Credential.Kind(rawValue: newest.attributes["kind"] ?? "secret"), secret: secret,
            createdAt: date("created"), updatedAt: date("updated"))
        return Current(credential: credential, all: items)
    }

    static func put(_ credential: Credential, key: CredentialKey, session: SecretServiceSession, replacing current: Current?) throws(TokenStoreError) {
        var attributes = ["service": key.service, "account": key.account, "kind": credential.kind.rawValue, "size": String(credential.secret.count)]
        attributes["created"] = credential.createdAt.map(timestamp)
        attributes["updated"] = credential.updatedAt.map(timestamp)
        if let expires = (try? credential.tokenSet())?.expiresAt { attributes["expires"] = timestamp(expires) }
        let contentType = credential.kind == .tokenSet ? "application/json" : "application/octet-stream"
        try session.create(attributes: attributes, label: "TokenKit: \(key.account) @ \(key.service)", secret: credential.secret, contentType: contentType)
        for item in current?.all ?? [] { try session.delete(item) }
    }

    static func timestamp(_ date: Date) -> String { String(format: "%.3f", date.timeIntervalSince1970) }

    /// Runs `body` on the store's queue with a fresh session under one deadline, after making
    /// sure a Secret Service answers at all, holding the cross-process lock when `locked`.
    private func run<T: Sendable>(
        locked: Bool = false, _ body: @escaping @Sendable (SecretServiceSession) throws(TokenStoreError) -> T
    ) async throws(TokenStoreError) -> T {
        let options = options
        let environment = environment
        return try await BlockingCall.run(on: queue) { () throws(TokenStoreError) -> T in
            let status = SecretServiceProbe.checkBlocking(busAddress: nil, environment: environment, timeout: min(.seconds(1), options.timeout))
            guard status.isAvailable else {
                throw .init(code: .noSecretService, message: "no Secret Service: \(status.reason); \(Self.startHint)")
            }
            // The lock is taken before the deadline starts: waiting for another writer (itself
            // bounded by its own deadline) must not eat into this operation's time.
            var lock: FileLock? = nil
            if locked {
                try PrivateFiles.preparePrivateDirectory(PathSplit.directory(of: options.lockFilePath))
                lock = try FileLock(path: options.lockFilePath)
            }
            defer { withExtendedLifetime(lock) {} }
            let deadline = Deadline(options.timeout)
            defer { deadline.finish() }
            let session = try SecretServiceSession(deadline: deadline, prompt: options.prompt)
            return try body(session)
        }
    }

    /// Like ``run(locked:_:)``, holding the write lock and passing what is stored now.
    private func write<T: Sendable>(
        _ key: CredentialKey, _ body: @escaping @Sendable (SecretServiceSession, Current?) throws(TokenStoreError) -> T
    ) async throws(TokenStoreError) -> T {
        try await run(locked: true) { session throws(TokenStoreError) -> T in
            try body(session, try Self.current(key, in: session))
        }
    }
}

extension Credential {
    fileprivate func stamped(previous: Credential?) -> Credential {
        stamped(replacing: previous, now: Date())
    }
}
