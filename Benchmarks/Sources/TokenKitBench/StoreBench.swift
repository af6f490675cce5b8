// Store round trips (save + load of one credential). Compiled when the root package has the
// encrypted-file and Secret Service stores: Benchmarks/run then passes -DTOKENKIT_HAS_STORES.
#if TOKENKIT_HAS_STORES
import BenchCore
import Foundation
import TokenKitStore
import TokenKitSecretService

enum StoreBench {
    static func credential() -> Credential {
        let token = Array(repeating: UInt8(ascii: "a"), count: 300)
        return Credential(secret: token)
    }

    /// Round trips per second (wall time: these are I/O-bound).
    static func roundTrips(_ store: some TokenStore, count: Int) async throws -> Double {
        let key = try CredentialKey(service: "tokenkit-bench", account: "bench")
        let credential = credential()
        try await store.save(credential, for: key)
        _ = try await store.load(key)
        let t0 = nowNanos()
        for _ in 0..<count {
            try await store.save(credential, for: key)
            guard try await store.load(key) != nil else { throw BenchError("store lost the credential") }
        }
        let seconds = Double(nowNanos() - t0) / 1e9
        _ = try? await store.delete(key)
        return Double(count) / seconds
    }

    static func run(quick: Bool, dir: String) async -> [ExtraLine] {
        var lines: [ExtraLine] = []
        let count = quick ? 20 : 200
        do {
            var raw = [UInt8](repeating: 0, count: 32)
            for i in raw.indices { raw[i] = UInt8.random(in: 0...255) }
            let store = EncryptedFileStore(path: dir + "/store.tkstore", key: try FileStoreKey.rawKey(raw))
            let rate = try await roundTrips(store, count: count)
            lines.append(("tokenkit", "-", "store-roundtrip-file", rate, "encrypted-file store, raw 32-byte key (no scrypt), save+load, wall time"))
        } catch {
            Extras.progressLine("encrypted-file store round trip failed: \(error)")
        }
        let environment = ProcessInfo.processInfo.environment
        if environment["DBUS_SESSION_BUS_ADDRESS"] != nil {
            do {
                let store = SecretServiceStore(options: .standard(environment: environment), environment: environment)
                let rate = try await roundTrips(store, count: count)
                lines.append(("tokenkit", "-", "store-roundtrip-secret-service", rate, "Secret Service (gnome-keyring on a private bus), save+load, wall time"))
            } catch {
                Extras.progressLine("Secret Service round trip failed: \(error)")
            }
        } else {
            Extras.progressLine("no D-Bus session: Secret Service round trip skipped (Benchmarks/run uses scripts/with-secret-service when present)")
        }
        return lines
    }
}
#endif
