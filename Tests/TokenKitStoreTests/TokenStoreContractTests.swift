import Foundation
import Testing
import TokenKitStore

/// The behaviour every backend promises (see `TokenStore`), run against the real memory,
/// encrypted-file and Secret Service backends.
@Suite("TokenStore contract")
struct TokenStoreContractTests {
    /// Runs `body` with a fresh store of `kind` and a unique service name; cleans up after.
    func withStore(_ kind: BackendKind, _ body: (any TokenStore, String) async throws -> Void) async throws {
        let (store, directory) = try await kind.makeStore()
        let service = uniqueService(kind.rawValue)
        defer { withExtendedLifetime(directory) {} }
        do {
            try await body(store, service)
        } catch {
            await cleanUp(store, service)
            throw error
        }
        await cleanUp(store, service)
    }

    func cleanUp(_ store: any TokenStore, _ service: String) async {
        for info in (try? await store.accounts(service: service)) ?? [] {
            if let key = try? CredentialKey(service: service, account: info.account) { _ = try? await store.delete(key) }
        }
    }

    @Test("save then load returns the same secret, kind and timestamps", arguments: BackendKind.allCases)
    func saveLoad(_ kind: BackendKind) async throws {
        try await withStore(kind) { store, service in
            let key = try CredentialKey(service: service, account: "alice")
            let before = Date().addingTimeInterval(-1)
            try await store.save(Credential(secret: Array("s3cret-value".utf8)), for: key)
            let loaded = try #require(try await store.load(key))
            #expect(loaded.secret == Array("s3cret-value".utf8))
            #expect(loaded.kind == .secret)
            let created = try #require(loaded.createdAt)
            #expect(created >= before && created <= Date().addingTimeInterval(1))
            #expect(loaded.updatedAt != nil)
        }
    }

    @Test("overwrite replaces the secret and kind but keeps the creation time", arguments: BackendKind.allCases)
    func overwrite(_ kind: BackendKind) async throws {
        try await withStore(kind) { store, service in
            let key = try CredentialKey(service: service, account: "bob")
            try await store.save(Credential(secret: [1, 2, 3]), for: key)
            let first = try #require(try await store.load(key))
            try await Task.sleep(for: .milliseconds(20))
            let tokens = TokenSet(accessToken: "at-1", refreshToken: "rt-1", expiresAt: Date(timeIntervalSince1970: 2_000_000_000), scope: "read")
            try await store.save(Credential(tokenSet: tokens), for: key)
            let second = try #require(try await store.load(key))
            #expect(second.kind == .tokenSet)
            #expect(try second.tokenSet() == tokens)
            let firstCreated = try #require(first.createdAt), secondCreated = try #require(second.createdAt)
            #expect(abs(firstCreated.timeIntervalSince(secondCreated)) < 0.01)
            #expect(try #require(second.updatedAt) > firstCreated)
            #expect(try await store.accounts(service: service).map(\.account) == ["bob"])
        }
    }

    @Test("delete removes the entry and reports whether there was one", arguments: BackendKind.allCases)
    func delete(_ kind: BackendKind) async throws {
        try await withStore(kind) { store, service in
            let key = try CredentialKey(service: service, account: "carol")
            try await store.save(Credential(secret: [9]), for: key)
            #expect(try await store.delete(key))
            #expect(try await store.load(key) == nil)
            #expect(try await store.delete(key) == false)
        }
    }

    @Test("a missing entry loads as nil, deletes as false and lists as nothing", arguments: BackendKind.allCases)
    func missing(_ kind: BackendKind) async throws {
        try await withStore(kind) { store, service in
            let key = try CredentialKey(service: service, account: "nobody")
            #expect(try await store.load(key) == nil)
            #expect(try await store.delete(key) == false)
            #expect(try await store.accounts(service: service).isEmpty)
        }
    }

    @Test("list returns the service's accounts sorted, with metadata and never the secrets", arguments: BackendKind.allCases)
    func list(_ kind: BackendKind) async throws {
        try await withStore(kind) { store, service in
            let other = uniqueService("other")
            let expiry = Date(timeIntervalSince1970: 1_900_000_000)
            try await store.save(Credential(secret: Array("zeta-SECRET-1".utf8)), for: CredentialKey(service: service, account: "zeta"))
            try await store.save(
                Credential(tokenSet: TokenSet(accessToken: "alpha-SECRET-2", expiresAt: expiry)),
                for: CredentialKey(service: service, account: "alpha"))
            try await store.save(Credential(secret: Array("other-SECRET-3".utf8)), for: CredentialKey(service: other, account: "mallory"))
            defer { Task { await cleanUp(store, other) } }
            let infos = try await store.accounts(service: service)
            #expect(infos.map(\.account) == ["alpha", "zeta"])
            #expect(infos.map(\.kind) == [.tokenSet, .secret])
            #expect(infos[1].size == "zeta-SECRET-1".utf8.count)
            #expect(infos[0].expiresAt.map { abs($0.timeIntervalSince(expiry)) < 0.01 } == true)
            #expect(infos.allSatisfy { $0.updatedAt != nil })
            let dump = String(describing: infos) + String(reflecting: infos)
            #expect(!dump.contains("SECRET"))
            await cleanUp(store, other)
        }
    }

    @Test("compare-and-swap writes only over the expected value", arguments: BackendKind.allCases)
    func compareAndSwap(_ kind: BackendKind) async throws {
        try await withStore(kind) { store, service in
            let key = try CredentialKey(service: service, account: "refresh")
            let v1 = Credential(tokenSet: TokenSet(accessToken: "a1", refreshToken: "r1"))
            let v2 = Credential(tokenSet: TokenSet(accessToken: "a2", refreshToken: "r2"))
            let v3 = Credential(tokenSet: TokenSet(accessToken: "a3", refreshToken: "r3"))
            // Create-if-absent.
            #expect(try await store.replace(key, expected: nil, with: v1))
            #expect(try await store.replace(key, expected: nil, with: v2) == false)
            #expect(try await store.load(key)?.secret == v1.secret)
            // Swap from the current value.
            #expect(try await store.replace(key, expected: v1, with: v2))
            #expect(try await store.load(key)?.secret == v2.secret)
            // A stale expectation (someone refreshed meanwhile) changes nothing.
            #expect(try await store.replace(key, expected: v1, with: v3) == false)
            #expect(try await store.load(key)?.secret == v2.secret)
            // Same bytes but a different kind is not a match.
            #expect(try await store.replace(key, expected: Credential(secret: v2.secret), with: v3) == false)
            // Swap to nothing deletes.
            #expect(try await store.replace(key, expected: v2, with: nil))
            #expect(try await store.load(key) == nil)
            #expect(try await store.replace(key, expected: v2, with: v3) == false)
            #expect(try await store.load(key) == nil)
        }
    }

    @Test("unicode service and account names round-trip", arguments: BackendKind.allCases)
    func unicodeNames(_ kind: BackendKind) async throws {
        try await withStore(kind) { store, service in
            let unicodeService = service + ".dienst-ü-日本"
            let key = try CredentialKey(service: unicodeService, account: "👩‍💻 Zoë Ångström / 名前")
            try await store.save(Credential(secret: Array("ünïcødé".utf8)), for: key)
            #expect(try await store.load(key)?.secret == Array("ünïcødé".utf8))
            #expect(try await store.accounts(service: unicodeService).map(\.account) == ["👩‍💻 Zoë Ångström / 名前"])
            #expect(try await store.delete(key))
        }
    }

    @Test("accounts are told apart byte for byte: \"K\" and KELVIN SIGN, precomposed and decomposed é are four accounts", arguments: BackendKind.allCases)
    func accountsComparedByteForByte(_ kind: BackendKind) async throws {
        try await withStore(kind) { store, service in
            let names = ["K", "\u{212A}", "caf\u{E9}", "cafe\u{301}"]
            #expect(names[0] == names[1] && names[2] == names[3], "the premise: Swift's == takes them as equal")
            for name in names {
                try await store.save(Credential(secret: Array(name.utf8)), for: try CredentialKey(service: service, account: name))
            }
            for name in names {
                #expect(try await store.load(try CredentialKey(service: service, account: name))?.secret == Array(name.utf8), "\(name.debugDescription)")
            }
            let listed = try await store.accounts(service: service).map(\.account)
            #expect(listed.count == 4, "\(listed.map(\.debugDescription))")
            #expect(try await store.delete(try CredentialKey(service: service, account: "\u{212A}")))
            #expect(try await store.load(try CredentialKey(service: service, account: "K"))?.secret == Array("K".utf8))
        }
    }

    @Test("binary secrets with NUL and every byte value round-trip exactly", arguments: BackendKind.allCases)
    func binarySecret(_ kind: BackendKind) async throws {
        try await withStore(kind) { store, service in
            let key = try CredentialKey(service: service, account: "binary")
            let secret: [UInt8] = [0, 0, 1] + (0...255).map(UInt8.init) + [0]
            try await store.save(Credential(secret: secret), for: key)
            #expect(try await store.load(key)?.secret == secret)
        }
    }

    @Test("a 1 MiB secret round-trips", arguments: BackendKind.allCases)
    func largeSecret(_ kind: BackendKind) async throws {
        try await withStore(kind) { store, service in
            let key = try CredentialKey(service: service, account: "large")
            var generator = SystemRandomNumberGenerator()
            let secret = (0..<(1 << 20)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            try await store.save(Credential(secret: secret), for: key)
            #expect(try await store.load(key)?.secret == secret)
            #expect(try await store.accounts(service: service).first?.size == 1 << 20)
        }
    }

    @Test("concurrent saves of different accounts all land; concurrent CAS increments never lose one", arguments: BackendKind.allCases)
    func concurrency(_ kind: BackendKind) async throws {
        try await withStore(kind) { store, service in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for i in 0..<12 {
                    group.addTask { try await store.save(Credential(secret: Array("v\(i)".utf8)), for: CredentialKey(service: service, account: "acct-\(i)")) }
                }
                try await group.waitForAll()
            }
            let accounts = try await store.accounts(service: service).map(\.account)
            #expect(Set(accounts) == Set((0..<12).map { "acct-\($0)" }))

            let counter = try CredentialKey(service: service, account: "counter")
            try await store.save(Credential(secret: Array("0".utf8)), for: counter)
            let workers = 4, increments = 3
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<workers {
                    group.addTask {
                        var done = 0
                        while done < increments {
                            let current = try #require(try await store.load(counter))
                            let value = try #require(Int(String(decoding: current.secret, as: UTF8.self)))
                            if try await store.replace(counter, expected: current, with: Credential(secret: Array(String(value + 1).utf8))) {
                                done += 1
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
            let final = try #require(try await store.load(counter))
            #expect(String(decoding: final.secret, as: UTF8.self) == String(workers * increments))
        }
    }
}
