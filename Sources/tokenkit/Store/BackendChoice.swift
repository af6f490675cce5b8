import Foundation
import TokenKitStore

/// Which backend a command uses, and why — decided in one place, the same way every time:
/// 1. `--backend NAME`;
/// 2. else `TOKENKIT_BACKEND=NAME`;
/// 3. (`auto` from 1 or 2, or neither given) else the backend `tokenkit login` recorded for
///    this login (``LoginRecords``), or for listing, the one backend every recorded login of
///    the services names;
/// 4. else `auto`: decided afresh (``TokenStores``).
///
/// So a login made where the keyring answered is looked for in the keyring later, from a shell
/// without the session bus too (and fails there naming the keyring, instead of "sign-in
/// required"); one stored in the file after a keyring stall is looked for in the file.
struct BackendChoice {
    /// The backend to open (`auto`: decide now).
    let backend: BackendOptions.Backend
    /// The encrypted file recorded with the login, if any.
    let file: String?
    /// Why, for messages: "chosen with --backend file", "recorded by `tokenkit login` in PATH"...
    let why: String

    /// The environment variable naming the default backend.
    static let environmentVariable = "TOKENKIT_BACKEND"

    /// Decides as described above; an unknown `TOKENKIT_BACKEND` value or an unreadable record
    /// is a failure naming it.
    static func resolve(
        flag: BackendOptions.Backend?, key: CredentialKey?, services: [String], environment: [String: String]
    ) throws -> BackendChoice {
        if let flag, flag != .auto { return BackendChoice(backend: flag, file: nil, why: "chosen with --backend \(flag.rawValue)") }
        if flag == nil, let value = environment[environmentVariable], !value.isEmpty {
            guard let named = BackendOptions.Backend(rawValue: value) else {
                throw CLIFailure.usage("\(environmentVariable)=\(value) is not a backend; use one of \(BackendOptions.Backend.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            if named != .auto { return BackendChoice(backend: named, file: nil, why: "chosen with \(environmentVariable)=\(value)") }
        }
        if let recorded = try recorded(key: key, services: services, environment: environment) { return recorded }
        return BackendChoice(backend: .auto, file: nil, why: "auto")
    }

    /// The recorded backend of `key`, or the one shared by every recorded login of `services`.
    private static func recorded(key: CredentialKey?, services: [String], environment: [String: String]) throws -> BackendChoice? {
        do throws(TokenStoreError) {
            let records = try LoginRecords.standard(environment: environment)
            var found: [LoginRecord] = []
            if let key {
                found = try records.read(key).map { [$0] } ?? []
            } else {
                for service in services { found += try records.records(service: service) }
            }
            guard let first = found.first, found.allSatisfy({ $0 == first }),
                  let backend = BackendOptions.Backend(rawValue: first.backend), backend != .auto
            else { return nil }
            return BackendChoice(backend: backend, file: first.file, why: "recorded by `tokenkit login` in \(records.directory)")
        } catch {
            throw CLIFailure(error)
        }
    }
}
