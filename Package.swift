// swift-tools-version:6.0
import Foundation
import PackageDescription

/// Settings every TokenKit target is built with: Swift 6 strict concurrency comes from the
/// language mode; `ExistentialAny` keeps existential costs visible.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "TokenKit",
    platforms: [.macOS(.v14)],
    products: [
        // JWT core: parse, verify, sign. Links OpenSSL only (never libsecret).
        .library(name: "TokenKit", targets: ["TokenKit"]),
        // TokenStore protocol, token sets, the in-memory and encrypted-file backends.
        .library(name: "TokenKitStore", targets: ["TokenKitStore"]),
        // The Secret Service (libsecret) backend: the only product that links libsecret.
        .library(name: "TokenKitSecretService", targets: ["TokenKitSecretService"]),
        // The HTTP transport protocol and its fetch gate (cap, deadline, redirects), remote key
        // sources and OpenID discovery (issue 23): what Auth and the services both use.
        .library(name: "TokenKitRemote", targets: ["TokenKitRemote"]),
        // AuthProvider actor, refreshers, sign-in; re-exports TokenKitRemote.
        .library(name: "TokenKitAuth", targets: ["TokenKitAuth"]),
        // HTTPTransport adapter for URLSession (FoundationNetworking).
        .library(name: "TokenKitURLSession", targets: ["TokenKitURLSession"]),
        // HTTPTransport adapter for AsyncHTTPClient.
        .library(name: "TokenKitAsyncHTTPClient", targets: ["TokenKitAsyncHTTPClient"]),
        // Token lifetime auditing engine used by `tokenkit audit`.
        .library(name: "TokenKitAudit", targets: ["TokenKitAudit"]),
        .executable(name: "tokenkit", targets: ["tokenkit"]),
        // PostgreSQL backend (issue 14): a shared TokenStore and RefreshLock for many replicas,
        // over postgres-nio (pure Swift wire protocol; TLS through swift-nio-ssl).
        .library(name: "TokenKitPostgres", targets: ["TokenKitPostgres"]),
        // The test support every TokenKit test target uses (the child-process runner, the
        // binary locator, the service gate, ...), for the reference apps' tests in their own
        // package. Not API: it changes with TokenKit's tests.
        .library(name: "TokenKitTestSupport", targets: ["TokenKitTestSupport"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.24.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.5.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // Hummingbird's own lifecycle library (already in its graph): only the test servers
        // name it, to stop a server gracefully instead of cancelling it.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.0.0"),
        // Telemetry (issue 29): the library emits through the APIs only; the application
        // chooses (bootstraps) the backend. Both are already in Hummingbird's graph.
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
    ],
    targets: [
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"])]
        ),
        .systemLibrary(
            name: "CLibSecret",
            pkgConfig: "libsecret-1",
            providers: [.apt(["libsecret-1-dev"])]
        ),
        .target(
            name: "TokenKitTime",
            swiftSettings: strictSettings
        ),
        // The small primitives several rooms share (issue 23): the one exact (byte-for-byte)
        // comparison and ExactKey, the one constant-time comparison, the ASCII character
        // classes of the OAuth/JOSE grammars. No dependencies; under every other target.
        .target(
            name: "TokenKitPrimitives",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "TokenKitPrimitivesTests",
            dependencies: ["TokenKitPrimitives"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "TokenKitCrypto",
            dependencies: ["COpenSSL", "TokenKitPrimitives"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "TokenKit",
            dependencies: ["TokenKitCrypto", "TokenKitTime", "TokenKitPrimitives"],
            swiftSettings: strictSettings
        ),
        // TokenKitStore reads token sets with the JWT core's strict JSON reader (issue 24: one
        // grammar for everything from outside), and holds the RefreshLock next to TokenStore.
        .target(
            name: "TokenKitStore",
            dependencies: ["TokenKit", "TokenKitCrypto", "TokenKitTime", "TokenKitPrimitives"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "TokenKitSecretService",
            dependencies: ["TokenKitStore", "CLibSecret", "TokenKitPrimitives"],
            swiftSettings: strictSettings
        ),
        // The room of every HTTP fetch (issue 23): the transport protocol with its fetch gate,
        // remote key sources and discovery. Knows nothing of stores, sign-in or refresh.
        .target(
            name: "TokenKitRemote",
            dependencies: [
                "TokenKit",
                "TokenKitTime",
                "TokenKitPrimitives",
                .product(name: "Logging", package: "swift-log"),
                // JWKS fetch and refresh metrics and spans (issue 29).
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "TokenKitAuth",
            dependencies: [
                "TokenKitRemote",  // re-exported: transport, remote keys, discovery, AuthError
                "TokenKit",
                "TokenKitTime",  // re-exported: its API takes the one TokenClock and Durations
                "TokenKitCrypto",  // sign-in and DPoP/private_key_jwt: random values and SHA-256 (issue 12)
                "TokenKitStore",
                "TokenKitPrimitives",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "TokenKitURLSession",
            dependencies: ["TokenKitRemote"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "TokenKitAsyncHTTPClient",
            dependencies: [
                "TokenKitRemote",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "TokenKitAudit",
            dependencies: ["TokenKit", "TokenKitCrypto", "TokenKitStore", "TokenKitPrimitives"],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "tokenkit",
            dependencies: [
                "TokenKit",
                "TokenKitStore",
                "TokenKitSecretService",
                "TokenKitAuth",
                "TokenKitURLSession",
                "TokenKitAudit",
                "TokenKitPostgres",
                "TokenKitPrimitives",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),
        // PostgreSQL backend (issue 14): PostgresTokenStore and PostgresRefreshLock over postgres-nio.
        // It depends on the store room only (issue 24: RefreshLock moved down next to TokenStore).
        .target(
            name: "TokenKitPostgres",
            dependencies: [
                "TokenKitStore", "TokenKitCrypto", "TokenKitPrimitives",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // A helper the PostgreSQL refresh tests and benchmark run as child processes (8
        // processes sharing one credential, SIGKILL mid-refresh). Not a product.
        .executableTarget(
            name: "tokenkit-refresh-stress",
            dependencies: ["TokenKitAuth", "TokenKitPostgres", "TokenKitStore", "TokenKitURLSession"],
            path: "Tests/RefreshStress",
            swiftSettings: strictSettings
        ),
        // The private PostgreSQL servers of scripts/with-postgres, for every test target.
        .target(
            name: "PostgresTestSupport",
            dependencies: ["TokenKitPostgres", "TokenKitStore", "TokenKitTestSupport"],
            path: "Tests/PostgresTestSupport",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "TokenKitPostgresTests",
            dependencies: [
                "TokenKitPostgres", "TokenKitAuth", "TokenKitStore", "PostgresTestSupport", "TokenKitTestSupport",
                .product(name: "PostgresNIO", package: "postgres-nio"),  // the TLS mapping tests read its configuration
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "issue-and-verify",
            dependencies: ["TokenKit"],
            path: "Examples/IssueAndVerify",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ExamplesTests",
            dependencies: ["issue-and-verify", "TokenKitTestSupport"],
            swiftSettings: strictSettings
        ),
        // A helper the store tests run as child processes (crash and concurrency tests):
        // it writes to an encrypted file store in a loop. Not a product.
        .executableTarget(
            name: "tokenkit-store-stress",
            dependencies: ["TokenKitStore"],
            path: "Tests/StoreStress",
            swiftSettings: strictSettings
        ),
        // A helper the unlock-prompt tests run in a private, locked keyring (libsecret keeps
        // one session-bus connection per process). Not a product.
        .executableTarget(
            name: "tokenkit-secret-service-helper",
            dependencies: ["TokenKitSecretService", "TokenKitStore"],
            path: "Tests/SecretServiceHelper",
            swiftSettings: strictSettings
        ),
        // The live-Secret-Service gate (the library's probe) for the suites that link the
        // Secret Service backend. Not a product.
        .target(
            name: "SecretServiceTestSupport",
            dependencies: ["TokenKitSecretService", "TokenKitTestSupport"],
            path: "Tests/SecretServiceTestSupport",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "TokenKitStoreTests",
            dependencies: ["TokenKitStore", "TokenKitSecretService", "TokenKitCrypto", "tokenkit-store-stress", "tokenkit-secret-service-helper", "TokenKitPostgres", "PostgresTestSupport", "SecretServiceTestSupport", "TokenKitTestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "TokenKitSecretServiceTests",
            dependencies: ["TokenKitSecretService", "TokenKitStore", "SecretServiceTestSupport", "TokenKitTestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "TokenKitStoreCLITests",
            // TokenKitStore: a test writes a store as another program could (fields the CLI must clean).
            dependencies: ["tokenkit", "TokenKitStore", "TokenKitTestSupport"],
            swiftSettings: strictSettings
        ),
        // Helpers every test target may use (issue 9: one copy instead of one per target):
        // the child-process runner, EINTR-safe pipe I/O, seeded random inputs, hex vectors, the
        // Python interop peer, the skip-or-fail gate for missing services. Not a product.
        .target(
            name: "TokenKitTestSupport",
            dependencies: ["TokenKitTime"],
            path: "Tests/TestSupport",
            swiftSettings: strictSettings
        ),
        // The in-process Hummingbird servers of the tests (one way to start one on loopback,
        // learn its port and stop it gracefully). Not a product.
        .target(
            name: "HTTPServerTestSupport",
            dependencies: [
                "TokenKitTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Tests/HTTPServerTestSupport",
            swiftSettings: strictSettings
        ),
        // Its own tests (serving, errors, and a stop while connections arrive).
        .testTarget(
            name: "HTTPServerTestSupportTests",
            dependencies: [
                "HTTPServerTestSupport",
                "TokenKitTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            swiftSettings: strictSettings
        ),
        // The test support's own tests (the process runner's capture, feeding, timeout and
        // signals).
        .testTarget(
            name: "TokenKitTestSupportTests",
            dependencies: ["TokenKitTestSupport"],
            swiftSettings: strictSettings
        ),
        // The OpenSSL wrapper's own tests: known answers, refusals and error reasons of the
        // primitives, without the JWT layer on top.
        .testTarget(
            name: "TokenKitCryptoTests",
            dependencies: ["TokenKitCrypto", "TokenKitTestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "TokenKitTests",
            dependencies: ["TokenKit", "TokenKitCrypto", "TokenKitTestSupport"],
            resources: [.copy("Vectors")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "TokenKitAuditTests",
            dependencies: ["TokenKitAudit", "TokenKit", "TokenKitStore", "TokenKitTestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "TokenKitAuditCLITests",
            dependencies: ["tokenkit", "TokenKit", "TokenKitTestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "TokenKitAuthTests",
            dependencies: [
                "TokenKitAuth",
                "TokenKitTestSupport",
                // The service test server verifies assertions and DPoP proofs with TokenKit.
                "TokenKit",
                "TokenKitCrypto",
                "TokenKitStore",
                "TokenKitURLSession",
                "TokenKitAsyncHTTPClient",
                "TokenKitPostgres",
                "PostgresTestSupport",
                "tokenkit-refresh-stress",
                "HTTPServerTestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "TokenKitCLITests",
            dependencies: ["tokenkit", "TokenKitTestSupport"],
            resources: [.copy("Fixtures")],
            swiftSettings: strictSettings
        ),

        // Fuzzing (issue 9): libFuzzer harnesses under Fuzz/, seed corpora in Fuzz/Corpus/.
        // `scripts/fuzz` builds them with -sanitize=fuzzer,address and -DTOKENKIT_FUZZING in
        // its own scratch path; an ordinary build makes corpus-replay executables of the same
        // harnesses (`fuzz-json-reader DIR...`). Not products.
        .target(
            name: "CFuzzDriver",
            path: "Fuzz/Driver"
        ),
        .target(
            name: "FuzzSupport",
            dependencies: ["CFuzzDriver"],
            path: "Fuzz/Support",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "fuzz-json-reader",
            dependencies: ["TokenKit", "FuzzSupport"],
            path: "Fuzz/JSONReader",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "fuzz-jws-verify",
            dependencies: ["TokenKit", "FuzzSupport"],
            path: "Fuzz/JWSVerify",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "fuzz-key-loading",
            dependencies: ["TokenKit", "FuzzSupport"],
            path: "Fuzz/KeyLoading",
            swiftSettings: strictSettings
        ),
        // Issue 28: compact-JWE decryption and x5c chain verification.
        .executableTarget(
            name: "fuzz-jwe-decrypt",
            dependencies: ["TokenKit", "FuzzSupport"],
            path: "Fuzz/JWEDecrypt",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "fuzz-x5c-chain",
            dependencies: ["TokenKit", "FuzzSupport"],
            path: "Fuzz/X5CChain",
            swiftSettings: strictSettings
        ),
        // Every seed corpus and past finding, replayed by the fuzz targets' replay builds.
        .testTarget(
            name: "FuzzReplayTests",
            dependencies: ["fuzz-json-reader", "fuzz-jws-verify", "fuzz-key-loading", "fuzz-jwe-decrypt", "fuzz-x5c-chain", "TokenKitTestSupport"],
            swiftSettings: strictSettings
        ),
    ]
)

// MARK: - Services (issue 11): Hummingbird middleware, the resource-server example
// The middleware is its own product so that only services pay for hummingbird-auth.
package.dependencies += [
    .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.0.0"),
    // resource-server's /metrics (issue 29): the Prometheus backend the example bootstraps.
    .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
]
package.products += [
    // Bearer-token authenticator middleware for Hummingbird (hummingbird-auth's model).
    .library(name: "TokenKitHummingbird", targets: ["TokenKitHummingbird"]),
    .executable(name: "resource-server", targets: ["resource-server"]),
]
package.targets += [
    .target(
        name: "TokenKitHummingbird",
        dependencies: [
            "TokenKit",
            "TokenKitPrimitives",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdAuth", package: "hummingbird-auth"),
            // Verification metrics and spans (issue 29).
            .product(name: "CoreMetrics", package: "swift-metrics"),
            .product(name: "Tracing", package: "swift-distributed-tracing"),
        ],
        swiftSettings: strictSettings
    ),
    .executableTarget(
        name: "resource-server",
        dependencies: [
            "TokenKit",
            "TokenKitRemote",
            "TokenKitHummingbird",
            "TokenKitAsyncHTTPClient",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdAuth", package: "hummingbird-auth"),
            .product(name: "Metrics", package: "swift-metrics"),
            .product(name: "Prometheus", package: "swift-prometheus"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ],
        path: "Examples/ResourceServer",
        swiftSettings: strictSettings
    ),
    .testTarget(
        name: "TokenKitHummingbirdTests",
        dependencies: [
            "TokenKitHummingbird",
            "TokenKitAuth",
            "TokenKitURLSession",
            "TokenKitAsyncHTTPClient",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdAuth", package: "hummingbird-auth"),
            .product(name: "HummingbirdTesting", package: "hummingbird"),
            .product(name: "MetricsTestKit", package: "swift-metrics"),
            .product(name: "CoreMetrics", package: "swift-metrics"),
            .product(name: "Tracing", package: "swift-distributed-tracing"),
            .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
        ],
        swiftSettings: strictSettings
    ),
]
// The example tests run the resource-server binary end to end.
for target in package.targets where target.name == "ExamplesTests" {
    target.dependencies += [
        "resource-server", "TokenKit", "HTTPServerTestSupport",
        .product(name: "Hummingbird", package: "hummingbird"),
    ]
}

// Documentation (issue 9): DocC catalogs live in Sources/<Target>/Docs.docc; build them with
// `swift package generate-documentation --target TokenKit` (swift-docc-plugin).
package.dependencies.append(.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"))

// Leak check (issue 9): with TOKENKIT_PACKAGE_SUBSET=core the package is only the JWT core and
// its tests, so `scripts/leak-check` builds just those with AddressSanitizer/LeakSanitizer
// instead of every test target and its dependencies. Unset, nothing changes.
if ProcessInfo.processInfo.environment["TOKENKIT_PACKAGE_SUBSET"] == "core" {
    let core: Set<String> = ["COpenSSL", "TokenKitTime", "TokenKitPrimitives", "TokenKitCrypto", "TokenKitCryptoTests", "TokenKit", "TokenKitTests", "TokenKitTestSupport"]
    package.targets.removeAll { !core.contains($0.name) }
    package.products.removeAll { $0.name != "TokenKit" }
    package.dependencies = []  // the core uses none: nothing to resolve, fetch or compile
}
