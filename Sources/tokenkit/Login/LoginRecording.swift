import Foundation
import TokenKitStore

/// Records (after `login`) and forgets (after `logout`) which backend holds a login, in
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

    static func forget(_ key: CredentialKey, environment: [String: String]) {
        do throws(TokenStoreError) {
            try LoginRecords.standard(environment: environment).remove(key)
        } catch {
            StandardStreams.writeError("warning: could not remove the record of \(key)'s backend (\(error.message))")
        }
    }
}
