import Foundation
internal import TokenKitCrypto

/// Turns a ``FileStoreKey`` into the file's encryption key and key-check value, and seals or
/// opens whole store files (header + AES-256-GCM ciphertext + tag).
///
/// Key schedule (format v1): `master` = scrypt(passphrase, salt, N, r, p, 32 bytes) or the raw
/// key; `encryptionKey` = HKDF-SHA256(master, salt, "tokenkit file v1 encryption");
/// `keyCheck` = HKDF-SHA256(master, salt, "tokenkit file v1 key check"). The key check is
/// stored in the header so a wrong passphrase is told apart from a modified file; HKDF
/// outputs with different labels are independent, so it reveals nothing about the
/// encryption key (it does allow offline passphrase guessing, at scrypt's cost — as the
/// ciphertext itself would).
final class FileCipher: @unchecked Sendable {
    // @unchecked Sendable: mutable `cache` is touched only on the owning store's serial queue.
    private let key: FileStoreKey
    private let newFileCost: Scrypt.Parameters
    private var cache: (salt: [UInt8], cost: Scrypt.Parameters, kind: FileHeader.KeyKind, keys: DerivedKeys)?

    struct DerivedKeys {
        let encryption: SecureBytes
        let check: [UInt8]
    }

    init(key: FileStoreKey, newFileCost: Scrypt.Parameters) {
        self.key = key
        self.newFileCost = newFileCost
    }

    /// Decrypts a whole file; throws ``TokenStoreError/Code/wrongPassphrase`` or
    /// ``TokenStoreError/Code/corrupted`` naming the cause.
    func open(file: [UInt8], path: String) throws(TokenStoreError) -> (header: FileHeader, plaintext: SecureBytes) {
        let header = try FileHeader(parsing: file, path: path)
        let keys = try derivedKeys(for: header, path: path)
        guard SecureBytes(keys.check).constantTimeEquals(header.keyCheck) else {
            throw .wrongPassphrase(isPassphrase
                ? "wrong passphrase for \(path)"
                : "wrong key for \(path): the raw key does not open it")
        }
        let headerBytes = Array(file[0..<FileHeader.byteCount])
        let tagStart = file.count - AESGCM.tagByteCount
        let box = AESGCM.SealedBox(ciphertext: Array(file[FileHeader.byteCount..<tagStart]), tag: Array(file[tagStart...]))
        do {
            let plaintext = try AESGCM.open(box, key: keys.encryption, nonce: header.nonce, additionalData: headerBytes)
            return (header, plaintext)
        } catch {
            throw .corrupted("\(path) was modified or damaged: its contents fail authentication")
        }
    }

    /// Encrypts `plaintext` into a complete file image with a fresh random nonce, reusing the
    /// salt and cost of `previous` (so the key need not be derived again) or creating new ones.
    func seal(_ plaintext: SecureBytes, previous: FileHeader?, path: String) throws(TokenStoreError) -> [UInt8] {
        do {
            var header: FileHeader
            if let previous {
                header = previous
            } else {
                let kind: FileHeader.KeyKind = isPassphrase ? .scrypt : .rawKey
                let cost = kind == .scrypt ? newFileCost : Scrypt.Parameters(logN: 0, r: 0, p: 0)
                header = FileHeader(
                    keyKind: kind, scrypt: cost, salt: try RandomBytes.generate(count: FileHeader.saltByteCount),
                    nonce: [], ciphertextLength: 0, keyCheck: [])
            }
            let keys = try derivedKeys(for: header, path: path)
            header.nonce = try AESGCM.randomNonce()
            header.ciphertextLength = UInt64(plaintext.count)
            header.keyCheck = keys.check
            let headerBytes = try header.encoded()
            let box = try AESGCM.seal(plaintext, key: keys.encryption, nonce: header.nonce, additionalData: headerBytes)
            return headerBytes + box.ciphertext + box.tag
        } catch let error as TokenStoreError {
            throw error
        } catch {
            throw .backend("could not encrypt \(path): \(error)")
        }
    }

    private var isPassphrase: Bool {
        if case .passphrase = key.material { true } else { false }
    }

    private func derivedKeys(for header: FileHeader, path: String) throws(TokenStoreError) -> DerivedKeys {
        if let cache, cache.salt == header.salt, cache.cost == header.scrypt, cache.kind == header.keyKind {
            return cache.keys
        }
        let master: SecureBytes
        switch (key.material, header.keyKind) {
        case let (.passphrase(passphrase), .scrypt):
            do {
                master = try Scrypt.deriveKey(passphrase: passphrase, salt: header.salt, parameters: header.scrypt, length: 32)
            } catch {
                throw .corrupted("\(path): \(error.message)")
            }
        case let (.rawKey(raw), .rawKey):
            master = raw
        case (.passphrase, .rawKey):
            throw .wrongPassphrase("\(path) is protected by a raw key, not a passphrase")
        case (.rawKey, .scrypt):
            throw .wrongPassphrase("\(path) is protected by a passphrase, not a raw key")
        }
        do {
            let keys = DerivedKeys(
                encryption: try HKDF.deriveKey(inputKey: master, salt: header.salt, info: Array("tokenkit file v1 encryption".utf8), length: 32),
                check: try HKDF.deriveKey(inputKey: master, salt: header.salt, info: Array("tokenkit file v1 key check".utf8), length: 32).bytes)
            cache = (header.salt, header.scrypt, header.keyKind, keys)
            return keys
        } catch {
            throw .backend("could not derive the file key: \(error.message)")
        }
    }
}
