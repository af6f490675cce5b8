internal import TokenKitCrypto

/// How the content encryption key (CEK) travels, per key management algorithm: made and
/// wrapped by the sender, recovered by the recipient.
enum JWEKeyManagement {
    /// The recipient's CEK for `jwe` with `key` (whose fit to the algorithms was checked).
    ///
    /// No oracle: when the CEK cannot be recovered — RSA-OAEP fails, AES key unwrap fails, an
    /// encrypted key of the wrong size — a random CEK of the right length is returned instead,
    /// so that the content decryption that follows fails with the one
    /// ``JWTError/Code/decryptionFailed`` error after the same work as for a wrong tag
    /// (RFC 7516 §11.5). Only public problems (a bad `epk`) throw here.
    static func recoverContentKey(_ jwe: CompactJWE, key: JWEKey) throws(JWTError) -> SecureBytes {
        let header = jwe.header
        let length = header.encryption.keyByteCount
        let recovered: SecureBytes?
        switch (header.algorithm.family, key.material) {
        case (.direct, .symmetric(let secret)):
            recovered = secret
        case (.aesKeyWrap, .symmetric(let kek)):
            recovered = try? AESKeyWrap.unwrap(jwe.encryptedKey, keyEncryptionKey: kek)
        case (.rsaOAEP(let sha256), .asymmetric(let pkey)):
            recovered = try? pkey.decryptOAEP(jwe.encryptedKey, digest: sha256 ? .sha256 : .sha1)
        case (.ecdhES(let wrapKeyBytes), .asymmetric(let pkey)):
            guard let epk = header.ephemeralKey else { throw .malformed("\(header.algorithm) needs an \"epk\" header") }
            let ephemeral = try ECDHESAgreement.ephemeralKey(epk, recipient: pkey)
            let derived: SecureBytes
            do {
                derived = try ECDHESAgreement.derive(
                    privateKey: pkey, publicKey: ephemeral,
                    algorithmID: wrapKeyBytes == nil ? header.encryption.name : header.algorithm.name,
                    keyByteCount: wrapKeyBytes ?? length, partyUInfo: header.partyUInfo, partyVInfo: header.partyVInfo)
            } catch {
                throw JWTError(code: .invalidEphemeralKey, reason: "invalid ephemeral key: \(error.message)", underlyingError: error)
            }
            recovered = wrapKeyBytes == nil ? derived : try? AESKeyWrap.unwrap(jwe.encryptedKey, keyEncryptionKey: derived)
        default:
            throw JWTError(code: .algorithmNotAllowed, reason: "the key (\(key.keyType)) cannot be used with \(header.algorithm)")
        }
        if let recovered, recovered.count == length { return recovered }
        do { return try RandomBytes.generateSecret(count: length) } catch {
            throw JWTError(code: .decryptionFailed, reason: "decryption failed", underlyingError: error)
        }
    }

    /// A fresh CEK for `encryption`, what part 2 carries, and the header members the
    /// algorithm adds (`epk`), for sending to `recipient`.
    static func newContentKey(
        to recipient: JWEKey, algorithm: JWEKeyAlgorithm, encryption: JWEContentEncryption
    ) throws(JWTError) -> (cek: SecureBytes, encryptedKey: [UInt8], headerMembers: [(String, JSONValue)]) {
        let length = encryption.keyByteCount
        do {
            switch (algorithm.family, recipient.material) {
            case (.direct, .symmetric(let secret)):
                return (secret, [], [])
            case (.aesKeyWrap, .symmetric(let kek)):
                let cek = try RandomBytes.generateSecret(count: length)
                return (cek, try AESKeyWrap.wrap(cek, keyEncryptionKey: kek), [])
            case (.rsaOAEP(let sha256), .asymmetric(let pkey)):
                let cek = try RandomBytes.generateSecret(count: length)
                return (cek, try pkey.encryptOAEP(cek, digest: sha256 ? .sha256 : .sha1), [])
            case (.ecdhES(let wrapKeyBytes), .asymmetric(let pkey)):
                let ephemeral = try PKey.generate(pkey.type)
                let derived = try ECDHESAgreement.derive(
                    privateKey: ephemeral, publicKey: pkey,
                    algorithmID: wrapKeyBytes == nil ? encryption.name : algorithm.name,
                    keyByteCount: wrapKeyBytes ?? length, partyUInfo: [], partyVInfo: [])
                let epk = JSONValue.object(try JWKFields.members(of: ephemeral, includingPrivate: false))
                guard wrapKeyBytes != nil else { return (derived, [], [("epk", epk)]) }
                let cek = try RandomBytes.generateSecret(count: length)
                return (cek, try AESKeyWrap.wrap(cek, keyEncryptionKey: derived), [("epk", epk)])
            default:
                throw JWTError(code: .algorithmNotAllowed, reason: "the key (\(recipient.keyType)) cannot be used with \(algorithm)")
            }
        } catch let error as CryptoError {
            throw .invalidKey("cannot encrypt the content key with \(algorithm)", cause: error)
        } catch let error as JWTError {
            throw error
        } catch {
            throw .invalidKey("cannot encrypt the content key with \(algorithm)")
        }
    }
}
