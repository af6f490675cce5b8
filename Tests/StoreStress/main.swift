// tokenkit-store-stress: a child process for the encrypted-file store's crash and
// concurrency tests. Not shipped.
//
//   tokenkit-store-stress overwrite FILE PASSFILE LOGN ACCOUNT COUNT
//       saves "value-1" ... "value-COUNT" under (stress, ACCOUNT), printing each number on
//       stdout once its save has returned (so a parent that kills it knows what is durable).
//   tokenkit-store-stress fill FILE PASSFILE LOGN PREFIX COUNT
//       saves one entry per account PREFIX-1 ... PREFIX-COUNT (value "PREFIX-i").
//   tokenkit-store-stress pause-in-write FILE PASSFILE LOGN ACCOUNT COUNT
//       like overwrite, but inside the write of "value-COUNT" (temporary file written and
//       synced, not yet renamed) prints "inside COUNT TEMPORARY-PATH" and waits to be killed.
//
// Exit status: 0 done, 2 a store error (printed on stderr), 64 bad arguments.
import Foundation
import TokenKitStore

@main
struct StoreStress {
    static func main() async {
        let args = CommandLine.arguments
        guard args.count == 7, let logN = UInt8(args[4]), let count = Int(args[6]), count > 0 else {
            FileHandle.standardError.write(Data("usage: tokenkit-store-stress overwrite|fill FILE PASSFILE LOGN NAME COUNT\n".utf8))
            exit(64)
        }
        do {
            guard let passphrase = try String(contentsOfFile: args[3], encoding: .utf8).split(separator: "\n").first else {
                FileHandle.standardError.write(Data("error: empty passphrase file\n".utf8))
                exit(64)
            }
            var options = EncryptedFileStore.Options(scryptCost: ScryptCost(logN: logN, r: 8, p: 1))
            if args[1] == "pause-in-write" {
                let writes = WriteCounter()
                options.beforeRename = { temporary in
                    guard writes.next() == count else { return }
                    FileHandle.standardOutput.write(Data("inside \(count) \(temporary)\n".utf8))
                    while true { pause() }
                }
            }
            let store = EncryptedFileStore(
                path: args[2], key: try FileStoreKey.passphrase(String(passphrase)), options: options)
            for i in 1...count {
                switch args[1] {
                case "overwrite", "pause-in-write":
                    try await store.save(Credential(secret: Array("value-\(i)".utf8)), for: CredentialKey(service: "stress", account: args[5]))
                case "fill":
                    let name = "\(args[5])-\(i)"
                    try await store.save(Credential(secret: Array(name.utf8)), for: CredentialKey(service: "stress", account: name))
                default:
                    exit(64)
                }
                FileHandle.standardOutput.write(Data("\(i)\n".utf8))
            }
        } catch let error as TokenStoreError {
            FileHandle.standardError.write(Data("error: \(error.message)\n".utf8))
            exit(2)
        } catch {
            FileHandle.standardError.write(Data("error: cannot read the passphrase file\n".utf8))
            exit(2)
        }
    }
}

/// Counts the writes that reached the rename (one store, one serial queue, but the hook is
/// `@Sendable`: a lock keeps it honest).
final class WriteCounter: @unchecked Sendable {
    // @unchecked Sendable: `count` is only touched under `lock`.
    private let lock = NSLock()
    private var count = 0

    func next() -> Int {
        lock.withLock {
            count += 1
            return count
        }
    }
}
