#if Postgres
import Foundation
internal import TokenKitCrypto
import TokenKitStore

/// Encrypts and decrypts one row's secret with AES-256-GCM under keys derived from the
/// application's ``FileStoreKey``s, and names each key by an id stored with the row.
///
/// Key schedule (`tokenkit postgres v1`): `master` = scrypt(passphrase, salt, cost) or the raw
/// key; `encryption` = HKDF-SHA256(master, salt, "tokenkit postgres v1 encryption");
/// `id` = hex of the first 8 bytes of HKDF-SHA256(master, salt, "tokenkit postgres v1 key id");
/// `check` = HKDF-SHA256(master, salt, "tokenkit postgres v1 parameters" 0 table 0 log2 N 0 r
/// 0 p), 32 bytes, stored in the `_keys` row: it authenticates the salt and cost with the
/// passphrase-derived key (``PostgresKeyParameters``). The salt and scrypt cost live in the
/// table's `_keys` companion row (one per table), so every replica derives the same keys. The
/// additional data binds the ciphertext to its table, service, account, kind and key id: a
/// row copied under another name fails to open.
struct PostgresRowCipher: Sendable {
    struct DerivedKey: Sendable {
        let id: String
        let encryption: SecureBytes
        /// The value that authenticates the `_keys` row's salt and cost under this key.
        let parametersCheck: SecureBytes
    }

    /// The key new rows are written with.
    let current: DerivedKey
    /// Every key rows may be read with (the current one first).
    let readable: [DerivedKey]
    let table: PostgresTableName

    init(key: FileStoreKey, previous: [FileStoreKey], salt: [UInt8], cost: Scrypt.Parameters, table: PostgresTableName) throws(TokenStoreError) {
        current = try Self.derive(key, salt: salt, cost: cost, table: table)
        var all = [current]
        for old in previous {
            let derived = try Self.derive(old, salt: salt, cost: cost, table: table)
            if !all.contains(where: { $0.id == derived.id }) { all.append(derived) }
        }
        readable = all
        self.table = table
    }

    /// A sealed secret: nonce and ciphertext followed by the 16-byte tag.
    struct Sealed: Sendable {
        let keyID: String
        let nonce: [UInt8]
        let ciphertext: [UInt8]
    }

    func seal(_ secret: [UInt8], kind: Credential.Kind, for key: CredentialKey) throws(TokenStoreError) -> Sealed {
        do {
            let nonce = try AESGCM.randomNonce()
            let box = try AESGCM.seal(
                SecureBytes(secret), key: current.encryption, nonce: nonce,
                additionalData: additionalData(key, kind: kind, keyID: current.id))
            return Sealed(keyID: current.id, nonce: nonce, ciphertext: box.ciphertext + box.tag)
        } catch {
            throw .backend("could not encrypt the credential for \(key): \(error.message)")
        }
    }

    func open(_ sealed: Sealed, kind: Credential.Kind, for key: CredentialKey) throws(TokenStoreError) -> [UInt8] {
        guard let derived = readable.first(where: { $0.id == sealed.keyID }) else {
            throw .wrongPassphrase(
                "the credential \(key) in table \(table) was encrypted with key \(sealed.keyID), but this store has key "
                    + readable.map(\.id).joined(separator: ", ")
                    + " (wrong passphrase, or pass the old key as a previous key to rotate)")
        }
        guard sealed.ciphertext.count >= AESGCM.tagByteCount, sealed.nonce.count == AESGCM.nonceByteCount else {
            throw .corrupted("the credential \(key) in table \(table) is truncated")
        }
        let split = sealed.ciphertext.count - AESGCM.tagByteCount
        let box = AESGCM.SealedBox(ciphertext: Array(sealed.ciphertext[..<split]), tag: Array(sealed.ciphertext[split...]))
        do {
            return try AESGCM.open(box, key: derived.encryption, nonce: sealed.nonce,
                                   additionalData: additionalData(key, kind: kind, keyID: sealed.keyID)).bytes
        } catch {
            throw .corrupted("the credential \(key) in table \(table) fails authentication (modified in the database, or copied from another row)")
        }
    }

    private func additionalData(_ key: CredentialKey, kind: Credential.Kind, keyID: String) -> [UInt8] {
        var data = Array("tokenkit postgres v1".utf8)
        for part in [table.rawValue, key.service, key.account, kind.rawValue, keyID] {
            data.append(0)
            data += Array(part.utf8)
        }
        return data
    }

    /// Which derived key a stored parameters check was made with: the current one, a previous
    /// one (a rotation in progress), or none (a wrong passphrase, or a tampered row).
    enum CheckMatch: Equatable {
        case current, previous, none
    }

    /// Compares `check` (from the `_keys` row) with every readable key's, in constant time.
    func match(parametersCheck check: [UInt8]) -> CheckMatch {
        if current.parametersCheck.constantTimeEquals(check) { return .current }
        return readable.dropFirst().contains { $0.parametersCheck.constantTimeEquals(check) } ? .previous : .none
    }

    private static func derive(_ key: FileStoreKey, salt: [UInt8], cost: Scrypt.Parameters, table: PostgresTableName) throws(TokenStoreError) -> DerivedKey {
        do {
            let master: SecureBytes
            switch key.material {
            case .passphrase(let passphrase):
                master = try Scrypt.deriveKey(passphrase: passphrase, salt: salt, parameters: cost, length: 32)
            case .rawKey(let raw):
                master = raw
            }
            let encryption = try HKDF.deriveKey(inputKey: master, salt: salt, info: Array("tokenkit postgres v1 encryption".utf8), length: 32)
            let id = try HKDF.deriveKey(inputKey: master, salt: salt, info: Array("tokenkit postgres v1 key id".utf8), length: 8).bytes
            var label = Array("tokenkit postgres v1 parameters".utf8)
            for part in [table.rawValue, String(cost.logN), String(cost.r), String(cost.p)] {
                label.append(0)
                label += Array(part.utf8)
            }
            let check = try HKDF.deriveKey(inputKey: master, salt: salt, info: label, length: 32)
            return DerivedKey(id: id.map { String($0, radix: 16).leftPadded() }.joined(), encryption: encryption, parametersCheck: check)
        } catch {
            throw .backend("could not derive the database encryption key: \(error.message)")
        }
    }
}

private extension String {
    func leftPadded() -> String { count == 1 ? "0" + self : self }
}
#endif
