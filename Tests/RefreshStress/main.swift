#if Postgres
// tokenkit-refresh-stress: a child process for the shared-store refresh tests and the
// benchmark. Not shipped.
//
//   tokenkit-refresh-stress STORE TABLE SERVICE ACCOUNT TOKEN_ENDPOINT CLIENT_ID TASKS [STALL]
//       Runs TASKS concurrent `validAccessToken()` calls on one AuthProvider and prints each
//       token on its own stdout line. STORE is a postgres:// URL (PostgresTokenStore in table
//       TABLE + PostgresRefreshLock) or file:PATH (EncryptedFileStore + FileRefreshLock in
//       PATH's directory; TABLE unused). STALL, while the refresher holds the lock (so a test
//       can SIGKILL the holder there): SECONDS prints "REFRESHING" and sleeps that long before
//       the token request; after:SECONDS prints "ROTATED" and sleeps after the server answered
//       (it has rotated the refresh token) and before the new set reaches the store.
//   tokenkit-refresh-stress bench-store STORE TABLE COUNT
//       Times COUNT round trips (save + load of a 300-byte secret) and prints
//       "p50_us p99_us" (microseconds, wall time).
//
// The database password comes from PGPASSWORD, the passphrase from TOKENKIT_PASSPHRASE (scrypt
// 2^4 for new tables and files: these measure coordination, not key stretching). The refresh
// lock waits TOKENKIT_STRESS_LOCK_SECONDS (default 60); a PostgreSQL lock's holder silence is
// TOKENKIT_STRESS_HOLDER_SILENCE_SECONDS (default: the library's, 60 s).
// Exit status: 0 every task got a token, 1 a failure (reasons on stderr), 64 bad arguments.
import Foundation
import TokenKitAuth
import TokenKitPostgres
import TokenKitStore
import TokenKitURLSession

/// Makes "killed mid-refresh" observable: before the request, prints "REFRESHING" and waits,
/// then delegates; after the answer, delegates, then prints "ROTATED" and waits before
/// returning the new set (which the provider then saves).
struct StallingRefresher: TokenRefresher {
    let inner: any TokenRefresher
    let stall: Duration
    let afterAnswer: Bool

    /// The stall STALL names (`SECONDS` or `after:SECONDS`), or nil when it names none.
    init?(inner: any TokenRefresher, spec: String) {
        let afterAnswer = spec.hasPrefix("after:")
        guard let seconds = Int(afterAnswer ? String(spec.dropFirst("after:".count)) : spec), seconds >= 0 else { return nil }
        self.inner = inner
        self.stall = .seconds(seconds)
        self.afterAnswer = afterAnswer
    }

    func refresh(_ tokenSet: TokenSet) async throws(AuthError) -> TokenSet {
        if afterAnswer {
            let fresh = try await inner.refresh(tokenSet)
            FileHandle.standardOutput.write(Data("ROTATED\n".utf8))
            try? await Task.sleep(for: stall)
            return fresh
        }
        FileHandle.standardOutput.write(Data("REFRESHING\n".utf8))
        try? await Task.sleep(for: stall)
        return try await inner.refresh(tokenSet)
    }
}

@main
struct RefreshStress {
    static let usage = """
        usage: tokenkit-refresh-stress STORE TABLE SERVICE ACCOUNT TOKEN_ENDPOINT CLIENT_ID TASKS [SECONDS | after:SECONDS]
               tokenkit-refresh-stress bench-store STORE TABLE COUNT

        """

    static func main() async {
        let args = Array(CommandLine.arguments.dropFirst())
        do {
            if args.first == "bench-store" {
                guard args.count == 4, let count = Int(args[3]), count > 0 else { fail(usage, status: 64) }
                let (store, _) = try open(args[1], table: args[2])
                try await benchStore(store, count: count)
                exit(0)
            }
            guard args.count == 7 || args.count == 8, let tasks = Int(args[6]), tasks > 0, let endpoint = URL(string: args[4]) else {
                fail(usage, status: 64)
            }
            let (store, lock) = try open(args[0], table: args[1])
            let grant = try OAuth2RefreshTokenGrant(tokenEndpoint: endpoint, clientID: args[5], transport: URLSessionTransport(timeout: .seconds(30)))
            var refresher: any TokenRefresher = grant
            if args.count == 8 {
                guard let stalling = StallingRefresher(inner: grant, spec: args[7]) else { fail(usage, status: 64) }
                refresher = stalling
            }
            let provider = AuthProvider(
                store: store, key: try CredentialKey(service: args[2], account: args[3]), refresher: refresher, lock: lock)
            let results = await withTaskGroup(of: Result<String, AuthError>.self) { group in
                for _ in 0..<tasks {
                    group.addTask {
                        do throws(AuthError) { return .success(try await provider.validAccessToken()) } catch { return .failure(error) }
                    }
                }
                var all: [Result<String, AuthError>] = []
                for await result in group { all.append(result) }
                return all
            }
            var output = "", errors = ""
            for result in results {
                switch result {
                case .success(let token): output += token + "\n"
                case .failure(let error): errors += "error: \(error.message)\n"
                }
            }
            FileHandle.standardOutput.write(Data(output.utf8))
            if !errors.isEmpty { fail(errors, status: 1) }
            exit(0)
        } catch let error as TokenStoreError {
            fail("error: \(error.message)\n", status: 1)
        } catch let error as AuthError {
            fail("error: \(error.message)\n", status: 1)
        } catch {
            fail("error: \(type(of: error))\n", status: 1)
        }
    }

    /// The store and lock named by `spec` (`postgres://…` or `file:PATH`).
    static func open(_ spec: String, table: String) throws -> (any TokenStore, any RefreshLock) {
        let environment = ProcessInfo.processInfo.environment
        let key = try FileStoreKey.passphrase(environment["TOKENKIT_PASSPHRASE"] ?? "")
        let cheap = ScryptCost(logN: 4, r: 8, p: 1)
        let wait = Duration.seconds(environment["TOKENKIT_STRESS_LOCK_SECONDS"].flatMap { Int($0) } ?? 60)
        if spec.hasPrefix("file:") {
            let path = String(spec.dropFirst("file:".count))
            let directory = (path as NSString).deletingLastPathComponent
            return (EncryptedFileStore(path: path, key: key, options: .init(scryptCost: cheap)),
                    FileRefreshLock(directory: directory + "/locks", timeout: wait))
        }
        let database = try PostgresEndpoint(url: spec, password: environment["PGPASSWORD"])
        let name = try PostgresTableName(table)
        return (PostgresTokenStore(endpoint: database, key: key, options: .init(table: name, scryptCost: cheap)),
                PostgresRefreshLock(
                    endpoint: database, namespace: name.rawValue, timeout: wait,
                    holderSilence: environment["TOKENKIT_STRESS_HOLDER_SILENCE_SECONDS"].flatMap { Int($0) }.map { .seconds($0) }
                        ?? PostgresRefreshLock.defaultHolderSilence))
    }

    /// Prints the p50 and p99 of `count` save+load round trips, in microseconds.
    static func benchStore(_ store: any TokenStore, count: Int) async throws {
        let key = try CredentialKey(service: "tokenkit-bench", account: "roundtrip")
        let credential = Credential(secret: Array(repeating: UInt8(ascii: "a"), count: 300))
        try await store.save(credential, for: key)
        var samples: [Double] = []
        let clock = ContinuousClock()
        for _ in 0..<count {
            let started = clock.now
            try await store.save(credential, for: key)
            guard try await store.load(key) != nil else { fail("error: the store lost the credential\n", status: 1) }
            let elapsed = clock.now - started
            samples.append(Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12)
        }
        _ = try await store.delete(key)
        samples.sort()
        func percentile(_ p: Double) -> Int { Int(samples[min(samples.count - 1, Int(Double(samples.count) * p))].rounded()) }
        print("\(percentile(0.50)) \(percentile(0.99))")
    }

    static func fail(_ message: String, status: Int32) -> Never {
        FileHandle.standardError.write(Data(message.utf8))
        exit(status)
    }
}
#else
import Foundation

/// A build without the `Postgres` trait has no PostgreSQL store to stress: exit 64.
@main
enum RefreshStressWithoutTrait {
    static func main() {
        FileHandle.standardError.write(Data("tokenkit-refresh-stress: built without the Postgres trait (swift build --traits Postgres)\n".utf8))
        exit(64)
    }
}
#endif
