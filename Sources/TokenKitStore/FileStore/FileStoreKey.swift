package import TokenKitCrypto

/// What opens an ``EncryptedFileStore``: a passphrase (stretched with scrypt) or a raw
/// 32-byte key supplied by the application.
///
/// Guarantees: the bytes are copied into a buffer that is wiped when the last copy of this
/// value goes away; `description` never shows them; an empty passphrase or a raw key of the
/// wrong length is refused. Does not: wipe the caller's own copy (`String`s and arrays
/// cannot be wiped reliably), or judge passphrase strength.
public struct FileStoreKey: Sendable, CustomStringConvertible {
    package enum Material: Sendable {
        case passphrase(SecureBytes)
        case rawKey(SecureBytes)
    }

    package let material: Material

    /// A passphrase given as bytes (e.g. read from a file or a prompt); must not be empty.
    public static func passphrase(_ bytes: [UInt8]) throws(TokenStoreError) -> FileStoreKey {
        guard !bytes.isEmpty else { throw .missingPassphrase("the passphrase is empty") }
        guard bytes.count <= 4096 else { throw .missingPassphrase("the passphrase is longer than 4096 bytes") }
        return FileStoreKey(material: .passphrase(SecureBytes(bytes)))
    }

    /// A passphrase given as text (its UTF-8 bytes); must not be empty.
    public static func passphrase(_ text: String) throws(TokenStoreError) -> FileStoreKey {
        try passphrase(Array(text.utf8))
    }

    /// A raw AES-256 key of exactly 32 bytes, e.g. from the app's own key management. It must
    /// be uniformly random: it is used without stretching.
    public static func rawKey(_ bytes: [UInt8]) throws(TokenStoreError) -> FileStoreKey {
        guard bytes.count == 32 else { throw .missingPassphrase("a raw key must be exactly 32 bytes, not \(bytes.count)") }
        return FileStoreKey(material: .rawKey(SecureBytes(bytes)))
    }

    /// `"passphrase"` or `"raw key"`; never the bytes.
    public var description: String {
        switch material {
        case .passphrase: "FileStoreKey(passphrase)"
        case .rawKey: "FileStoreKey(raw key)"
        }
    }
}
