// tokenkit-secret-service-helper: runs one SecretServiceStore operation in a process of its
// own, so a test can point it at a private keyring that the test locked (libsecret keeps one
// session-bus connection per process, so the test process cannot switch buses itself).
//
// Usage: tokenkit-secret-service-helper load (--prompt | --no-prompt) SERVICE ACCOUNT LOCKFILE
// Prints one line on stdout: `found`, `absent`, or `error CODE: MESSAGE`; exits 0, 0, 1.
// Exit 64 for a usage error.
import Foundation
import TokenKitSecretService
import TokenKitStore

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 5, arguments[0] == "load", ["--prompt", "--no-prompt"].contains(arguments[1]) else {
    FileHandle.standardError.write(Data("usage: tokenkit-secret-service-helper load (--prompt | --no-prompt) SERVICE ACCOUNT LOCKFILE\n".utf8))
    exit(64)
}
let options = SecretServiceStore.Options(lockFilePath: arguments[4], timeout: .seconds(10), allowsUnlockPrompt: arguments[1] == "--prompt")
let store = SecretServiceStore(options: options, environment: ProcessInfo.processInfo.environment)
do {
    let key = try CredentialKey(service: arguments[2], account: arguments[3])
    let credential = try await store.load(key)
    print(credential == nil ? "absent" : "found")
} catch {
    print("error \(error.code): \(error.message)")
    exit(1)
}
