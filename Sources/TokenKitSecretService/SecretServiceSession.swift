import Foundation
import TokenKitStore
internal import CLibSecret

/// One operation's connection to the Secret Service's default collection: every call is
/// bounded by one ``Deadline`` and every GLib failure is translated into a
/// ``TokenStoreError`` that names its cause. Used only on the store's own queue.
struct SecretServiceSession {
    let service: GObjectRef
    let collection: GObjectRef
    let deadline: Deadline

    /// Opens a session, finds the default collection and makes sure it is unlocked
    /// (prompting only when `allowsUnlockPrompt`).
    init(deadline: Deadline, allowsUnlockPrompt: Bool) throws(TokenStoreError) {
        self.deadline = deadline
        let flags = SecretServiceFlags(SECRET_SERVICE_OPEN_SESSION.rawValue)
        let servicePointer = try Self.call(deadline, "connect to the Secret Service") { error in
            secret_service_open_sync(tokenkit_secret_service_type(), nil, flags, deadline.cancellable, error)
        }
        guard let service = GObjectRef(taking: servicePointer.map(UnsafeMutableRawPointer.init)) else {
            throw .init(code: .noSecretService, message: "the Secret Service did not return a connection")
        }
        self.service = service
        let collectionPointer = try Self.call(deadline, "open the default collection") { error in
            secret_collection_for_alias_sync(
                service.cast(to: SecretService.self), SECRET_COLLECTION_DEFAULT, SecretCollectionFlags(SECRET_COLLECTION_NONE.rawValue),
                deadline.cancellable, error)
        }
        guard let collection = GObjectRef(taking: collectionPointer.map(UnsafeMutableRawPointer.init)) else {
            throw .backend("the Secret Service has no default collection (keyring); create one, e.g. by logging in to the desktop once or with seahorse")
        }
        self.collection = collection
        if secret_collection_get_locked(collection.cast(to: SecretCollection.self)) != 0 {
            guard allowsUnlockPrompt else {
                throw .init(code: .locked, message: "the default keyring collection is locked; unlock it (log in to the desktop, or use seahorse / your keyring tool) and retry")
            }
            let unlocked = try Self.call(deadline, "unlock the default collection") { error in
                tokenkit_unlock_collection(
                    service.cast(to: SecretService.self), collection.cast(to: SecretCollection.self), deadline.cancellable, error)
            }
            guard unlocked > 0 else {
                throw .init(code: .dismissed, message: "the unlock prompt for the default keyring collection was dismissed")
            }
        }
    }

    /// Items of our schema whose attributes include `attributes`, with their secrets loaded
    /// when `loadSecrets`.
    func search(_ attributes: [String: String], loadSecrets: Bool) throws(TokenStoreError) -> [SecretServiceItem] {
        let table = GAttributes(attributes)
        var flags = SECRET_SEARCH_ALL.rawValue
        if loadSecrets { flags |= SECRET_SEARCH_LOAD_SECRETS.rawValue }
        let list = try Self.call(deadline, "search the default collection") { error in
            secret_collection_search_sync(
                collection.cast(to: SecretCollection.self), tokenkit_credential_schema(), table.table,
                SecretSearchFlags(flags), deadline.cancellable, error)
        }
        defer { tokenkit_object_list_free(list) }
        var items: [SecretServiceItem] = []
        var node = list
        while let current = node {
            if let data = current.pointee.data { items.append(SecretServiceItem(GObjectRef(retaining: data))) }
            node = current.pointee.next
        }
        return items
    }

    /// Creates a new item (never replacing: the caller deletes older ones afterwards).
    func create(attributes: [String: String], label: String, secret: [UInt8], contentType: String) throws(TokenStoreError) {
        let table = GAttributes(attributes)
        // secret_value_new copies the bytes into libsecret's (non-pageable) secure memory.
        let created: OpaquePointer? = secret.withUnsafeBytes { bytes in
            secret_value_new(bytes.baseAddress?.assumingMemoryBound(to: CChar.self), bytes.count, contentType)
        }
        guard let value = created else { throw .backend("libsecret could not hold the secret") }
        defer { secret_value_unref(UnsafeMutableRawPointer(value)) }
        let item = try Self.call(deadline, "store the credential") { error in
            secret_item_create_sync(
                collection.cast(to: SecretCollection.self), tokenkit_credential_schema(), table.table, label, value,
                SecretItemCreateFlags(SECRET_ITEM_CREATE_NONE.rawValue), deadline.cancellable, error)
        }
        guard GObjectRef(taking: item.map(UnsafeMutableRawPointer.init)) != nil else {
            throw .backend("the Secret Service did not create the item")
        }
    }

    /// Deletes one item.
    func delete(_ item: SecretServiceItem) throws(TokenStoreError) {
        _ = try Self.call(deadline, "delete the credential") { error in
            secret_item_delete_sync(item.ref.cast(to: SecretItem.self), deadline.cancellable, error)
        }
    }

    /// Runs a GLib call and translates its failure.
    static func call<T>(
        _ deadline: Deadline, _ action: String, _ body: (UnsafeMutablePointer<UnsafeMutablePointer<GError>?>) -> T
    ) throws(TokenStoreError) -> T {
        do {
            return try GLibFailure.check(body)
        } catch {
            throw translate(error, action: action, deadline: deadline)
        }
    }

    static func translate(_ failure: GLibFailure, action: String, deadline: Deadline) -> TokenStoreError {
        if failure.isCancelled || failure.isTimeout || deadline.expired {
            return .init(
                code: .timeout,
                message: "the Secret Service did not answer within \(SecondsText.format(deadline.span)) s while trying to \(action) (it may be hung, or waiting for a prompt on the display)")
        }
        if failure.isNoService {
            return .init(code: .noSecretService, message: "no Secret Service is available (\(failure.message)); \(SecretServiceStore.startHint)")
        }
        if failure.isLocked {
            return .init(code: .locked, message: "the default keyring collection is locked; unlock it and retry")
        }
        return .backend("the Secret Service failed to \(action): \(failure.message)")
    }
}

/// A stored item (one reference, dropped once) and its non-secret attributes.
struct SecretServiceItem {
    let ref: GObjectRef
    let attributes: [String: String]

    init(_ ref: GObjectRef) {
        self.ref = ref
        var values: [String: String] = [:]
        if let table = GAttributes(taking: secret_item_get_attributes(ref.cast(to: SecretItem.self))) {
            for name in ["service", "account", "kind", "size", "created", "updated", "expires"] {
                values[name] = table[name]
            }
        }
        attributes = values
    }

    /// The secret bytes, if they were loaded (search with `loadSecrets`).
    func secret() -> [UInt8]? {
        guard let value = secret_item_get_secret(ref.cast(to: SecretItem.self)) else { return nil }
        defer { secret_value_unref(UnsafeMutableRawPointer(value)) }
        var length: Int = 0
        guard let bytes = secret_value_get(value, &length) else { return [] }
        return Array(UnsafeRawBufferPointer(start: bytes, count: length))
    }

    /// When this item was last written, per its `updated` attribute (0 when absent).
    var updated: Double { attributes["updated"].flatMap(Double.init) ?? 0 }
}
