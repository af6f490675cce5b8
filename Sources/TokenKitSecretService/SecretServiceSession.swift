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
    let prompt: UnlockPromptPolicy

    /// Opens a session, finds the default collection (creating it when there is none and
    /// prompts are allowed: the service asks for its password) and makes sure it is unlocked
    /// (prompting only when `prompt` allows, under its own timeout).
    init(deadline: Deadline, prompt: UnlockPromptPolicy) throws(TokenStoreError) {
        self.deadline = deadline
        self.prompt = prompt
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
        if let found = GObjectRef(taking: collectionPointer.map(UnsafeMutableRawPointer.init)) {
            collection = found
        } else {
            guard prompt.isAllowed else {
                throw .backend("the Secret Service has no default collection (keyring), and TokenKit does not prompt to create one here (\(prompt.reason)); create one (log in to the desktop once, or use seahorse), or choose the encrypted file")
            }
            let created = try Self.prompting(deadline, prompt, "create the default collection") { promptDeadline, error in
                tokenkit_create_collection(service.cast(to: SecretService.self), "Login", SECRET_COLLECTION_DEFAULT, promptDeadline.cancellable, error)
            }
            guard let made = GObjectRef(taking: created.map(UnsafeMutableRawPointer.init)) else {
                throw .init(code: .dismissed, message: "the prompt to create the default keyring collection was dismissed")
            }
            collection = made
        }
        if secret_collection_get_locked(collection.cast(to: SecretCollection.self)) != 0 {
            guard prompt.isAllowed else {
                throw .init(code: .locked, message: "the default keyring collection is locked, and TokenKit does not prompt to unlock it here (\(prompt.reason)); unlock it (log in to the desktop, or use seahorse / your keyring tool) and retry")
            }
            try unlock([collection], what: "the default keyring collection")
        }
    }

    /// Items of our schema whose attributes include `attributes`, with their secrets loaded
    /// when `loadSecrets` — after asking the service to unlock the items it keeps locked
    /// (KeePassXC's access confirmation), when prompts are allowed.
    func search(_ attributes: [String: String], loadSecrets: Bool) throws(TokenStoreError) -> [SecretServiceItem] {
        let table = GAttributes(attributes)
        let list = try Self.call(deadline, "search the default collection") { error in
            secret_collection_search_sync(
                collection.cast(to: SecretCollection.self), tokenkit_credential_schema(), table.table,
                SecretSearchFlags(SECRET_SEARCH_ALL.rawValue), deadline.cancellable, error)
        }
        defer { tokenkit_object_list_free(list) }
        var refs: [GObjectRef] = []
        var node = list
        while let current = node {
            if let data = current.pointee.data { refs.append(GObjectRef(retaining: data)) }
            node = current.pointee.next
        }
        if loadSecrets, !refs.isEmpty {
            let locked = refs.filter { secret_item_get_locked($0.cast(to: SecretItem.self)) != 0 }
            if !locked.isEmpty {
                guard prompt.isAllowed else {
                    throw .init(code: .locked, message: "the Secret Service keeps TokenKit's item locked until access to it is confirmed, and TokenKit does not prompt here (\(prompt.reason)); confirm it on the desktop, or turn the confirmation off (KeePassXC: Tools > Settings > Secret Service Integration > \"Confirm when passwords are retrieved by clients\")")
                }
                try unlock(locked, what: "TokenKit's keyring item")
            }
            var pointers = refs.map { Optional($0.pointer) }
            _ = try Self.call(deadline, "read the credential") { error in
                tokenkit_load_secrets(&pointers, UInt32(pointers.count), deadline.cancellable, error)
            }
        }
        return refs.map(SecretServiceItem.init)
    }

    /// Asks the service to unlock `objects` (which may show a prompt), under the prompt's timeout.
    private func unlock(_ objects: [GObjectRef], what: String) throws(TokenStoreError) {
        var pointers = objects.map { Optional($0.pointer) }
        let unlocked = try Self.prompting(deadline, prompt, "unlock \(what)") { promptDeadline, error in
            tokenkit_unlock_objects(service.cast(to: SecretService.self), &pointers, UInt32(pointers.count), promptDeadline.cancellable, error)
        }
        guard unlocked >= objects.count else {
            throw .init(code: .dismissed, message: "the unlock prompt for \(what) was dismissed")
        }
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
    /// Deletes one item. A service may ask a person to confirm (KeePassXC, for a permanent
    /// delete): the wait is the prompt's when prompts are allowed.
    func delete(_ item: SecretServiceItem) throws(TokenStoreError) {
        let body = { (current: Deadline, error: UnsafeMutablePointer<UnsafeMutablePointer<GError>?>) in
            secret_item_delete_sync(item.ref.cast(to: SecretItem.self), current.cancellable, error)
        }
        if prompt.isAllowed {
            _ = try Self.prompting(deadline, prompt, "delete the credential", body)
        } else {
            _ = try Self.call(deadline, "delete the credential") { error in body(deadline, error) }
        }
    }

    /// Runs a GLib call that may show a prompt: under the prompt's own deadline, with the
    /// operation's deadline held off meanwhile; a prompt left unanswered is a timeout naming it.
    static func prompting<T>(
        _ deadline: Deadline, _ prompt: UnlockPromptPolicy, _ action: String,
        _ body: (Deadline, UnsafeMutablePointer<UnsafeMutablePointer<GError>?>) -> T
    ) throws(TokenStoreError) -> T {
        try deadline.holdingOff(for: prompt.timeout) { (promptDeadline: Deadline) throws(TokenStoreError) -> T in
            do throws(GLibFailure) {
                return try GLibFailure.check { error in body(promptDeadline, error) }
            } catch {
                if promptDeadline.expired {
                    throw TokenStoreError(
                        code: .timeout,
                        message: "nobody answered the Secret Service's prompt to \(action) within \(SecondsText.format(promptDeadline.span)) s")
                }
                throw translate(error, action: action, deadline: promptDeadline)
            }
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
