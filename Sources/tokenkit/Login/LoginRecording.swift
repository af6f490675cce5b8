import Foundation
import TokenKitStore

/// Records (after `login` and `store put --token-set`) and forgets (after `logout` and
/// `store delete`) which backend holds a login, in
/// ``LoginRecords``. A record that cannot be written is one `warning:` line: the login itself
/// is stored, and later commands then decide the backend as `auto` does.
enum LoginRecording {
    static func record(_ record: LoginRecord, for key: CredentialKey, environment: [String: String]) {
        do throws(TokenStoreError) {
            try LoginRecords.standard(environment: environment).write(record, for: key)
        } catch {
            StandardStreams.writeError("warning: could not record which backend holds \(key) (\(error.message)); later commands pass --backend \(record.backend) to find it")
        }
    }

    /// Forgets the record of `key` when it points at `deletedFrom`, the backend the login was
    /// just deleted from (a delete from another backend leaves the record of the one that
    /// still holds it). An unreadable record is removed: it pointed nowhere usable.
    static func forget(_ key: CredentialKey, deletedFrom: LoginRecord, environment: [String: String]) {
        do throws(TokenStoreError) {
            let records = try LoginRecords.standard(environment: environment)
            let current: LoginRecord?
            do throws(TokenStoreError) { current = try records.read(key) } catch { current = deletedFrom }
            guard let current, current == deletedFrom else { return }
            try records.remove(key)
        } catch {
            StandardStreams.writeError("warning: could not remove the record of \(key)'s backend (\(error.message))")
        }
    }
}
