import Foundation
internal import TokenKitCrypto

/// Where a login was stored: the backend's name and, for the encrypted file, its path. No
/// secret: a passphrase is never recorded.
package struct LoginRecord: Sendable, Equatable {
    /// The backend, e.g. `"secret-service"` or `"file"`.
    package var backend: String
    /// The encrypted file's path, when `backend` is `"file"` and one was given.
    package var file: String?

    package init(backend: String, file: String? = nil) {
        self.backend = backend
        self.file = file
    }
}

/// Small 0600 files, one per login, that remember which backend holds it, so that every later
/// command looks there instead of deciding again (a missing session bus or a stalled keyring
/// must not send `token` or `logout` to another backend).
///
/// Layout: `DIRECTORY/SHA256(service)/SHA256(account)` (hex, so no name can escape the
/// directory or need escaping), holding `backend=NAME` and optionally `file=PATH` lines.
/// Directories are 0700 and checked like the encrypted file's (owner, no group/other write).
///
/// Guarantees: a record is replaced atomically; a record that does not parse is refused with
/// an error naming the file, never guessed at. Does not: hold secrets, or lock (the last
/// writer wins, as with two logins in a row).
package struct LoginRecords: Sendable {
    /// The directory holding the records.
    package let directory: String

    package init(directory: String) { self.directory = directory }

    /// `$XDG_CONFIG_HOME/tokenkit/logins` (else `~/.config/tokenkit/logins`).
    package static func standard(environment: [String: String]) throws(TokenStoreError) -> LoginRecords {
        LoginRecords(directory: "\(try XDGDirectory.config.path(environment: environment))/tokenkit/logins")
    }

    /// The record of `key`, or `nil` when none was written.
    package func read(_ key: CredentialKey) throws(TokenStoreError) -> LoginRecord? {
        let path = try self.path(key)
        guard try PrivateFiles.checkDirectory(PathSplit.directory(of: path), create: false),
              let bytes = try PrivateFiles.readIfPresent(path)
        else { return nil }
        return try Self.parse(bytes, path: path)
    }

    /// The records of every account of `service`.
    package func records(service: String) throws(TokenStoreError) -> [LoginRecord] {
        let folder = "\(directory)/\(try Self.digest(service))"
        guard try PrivateFiles.checkDirectory(folder, create: false) else { return [] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        var found: [LoginRecord] = []
        for name in names.sorted() where name.count == 64 && name.allSatisfy(\.isHexDigit) {
            if let bytes = try PrivateFiles.readIfPresent("\(folder)/\(name)") {
                found.append(try Self.parse(bytes, path: "\(folder)/\(name)"))
            }
        }
        return found
    }

    /// Writes (replaces) the record of `key`.
    package func write(_ record: LoginRecord, for key: CredentialKey) throws(TokenStoreError) {
        let path = try self.path(key)
        try PrivateFiles.checkDirectory(PathSplit.directory(of: path), create: true)
        var text = "backend=\(record.backend)\n"
        if let file = record.file { text += "file=\(file)\n" }
        try PrivateFiles.replaceAtomically(path, with: Array(text.utf8))
    }

    /// Removes the record of `key`; nothing happens when there is none.
    package func remove(_ key: CredentialKey) throws(TokenStoreError) {
        let path = try self.path(key)
        guard unlink(path) == 0 || errno == ENOENT else { throw .io("cannot remove \(path): \(PrivateFiles.describe(errno))") }
    }

    private func path(_ key: CredentialKey) throws(TokenStoreError) -> String {
        "\(directory)/\(try Self.digest(key.service))/\(try Self.digest(key.account))"
    }

    private static func digest(_ name: String) throws(TokenStoreError) -> String {
        let bytes: [UInt8]
        do throws(CryptoError) { bytes = try SHA256Digest.hash(Array(name.utf8)) } catch { throw .io("cannot hash a login name: \(error.message)") }
        return bytes.map { String(format: "%02x", $0) }.joined()
    }

    /// The record in `bytes` (read from `path`, named in errors).
    package static func parse(_ bytes: [UInt8], path: String) throws(TokenStoreError) -> LoginRecord {
        var backend: String?
        var file: String?
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            if line.hasPrefix("backend="), backend == nil { backend = String(line.dropFirst(8)) }
            else if line.hasPrefix("file="), file == nil { file = String(line.dropFirst(5)) }
            else { throw .corrupted("\(path) is not a TokenKit login record (unexpected line); remove it to choose the backend again") }
        }
        guard let backend, !backend.isEmpty, file.map({ $0.hasPrefix("/") }) ?? true else {
            throw .corrupted("\(path) is not a TokenKit login record; remove it to choose the backend again")
        }
        return LoginRecord(backend: backend, file: file)
    }
}
