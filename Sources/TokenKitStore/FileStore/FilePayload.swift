import Foundation

/// The plaintext inside an encrypted store file: every entry, as JSON
/// `{"entries":[{"service","account","kind","secret":BASE64,"created_at","updated_at"}]}`
/// with timestamps in Unix seconds. Only ever written to disk encrypted.
struct FilePayload: Codable {
    struct Entry: Codable {
        var service: String
        var account: String
        var kind: String
        var secret: Data
        var createdAt: Double?
        var updatedAt: Double?

        enum CodingKeys: String, CodingKey {
            case service, account, kind, secret
            case createdAt = "created_at"
            case updatedAt = "updated_at"
        }
    }

    var entries: [Entry]

    /// The entries as a dictionary; a malformed entry (bad key) makes the file corrupt.
    func credentials(path: String) throws(TokenStoreError) -> [CredentialKey: Credential] {
        var result: [CredentialKey: Credential] = [:]
        for entry in entries {
            guard let key = try? CredentialKey(service: entry.service, account: entry.account) else {
                throw .corrupted("\(path) holds an entry with an invalid service or account name")
            }
            result[key] = Credential(
                kind: Credential.Kind(rawValue: entry.kind), secret: Array(entry.secret),
                createdAt: entry.createdAt.map(Date.init(timeIntervalSince1970:)),
                updatedAt: entry.updatedAt.map(Date.init(timeIntervalSince1970:)))
        }
        return result
    }

    init(credentials: [CredentialKey: Credential]) {
        entries = credentials
            .sorted { ($0.key.service, $0.key.account) < ($1.key.service, $1.key.account) }
            .map { key, credential in
                Entry(
                    service: key.service, account: key.account, kind: credential.kind.rawValue,
                    secret: Data(credential.secret),
                    createdAt: credential.createdAt?.timeIntervalSince1970,
                    updatedAt: credential.updatedAt?.timeIntervalSince1970)
            }
    }

    static func decode(_ data: Data, path: String) throws(TokenStoreError) -> FilePayload {
        do {
            return try JSONDecoder().decode(FilePayload.self, from: data)
        } catch {
            throw .corrupted("\(path) decrypted, but its contents are not a valid credential list")
        }
    }

    func encoded() throws(TokenStoreError) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            return Array(try encoder.encode(self))
        } catch {
            throw .backend("could not encode the credential list")
        }
    }
}
