// swift-tools-version:6.1
import PackageDescription

// TokenKit: JWTs and stored credentials on OpenSSL. One list, read top to bottom:
//
//   traits        optional integrations, all OFF by default (README, "Build options")
//   dependencies  the packages; the NIO-based ones are only resolved when their trait is on
//   products      what a user depends on; each optional one needs its trait
//   targets       libraries, the CLI, examples, test support, tests, fuzz harnesses
//
// A package that depends on the `TokenKit` product compiles TokenKit's own targets and
// nothing else (OpenSSL is a system library). With no trait enabled, `swift build --product
// tokenkit` needs no SwiftNIO, swift-nio-ssl or postgres-nio. Every reference to a package
// behind a trait carries that trait's condition (tests included): that is what keeps SwiftPM
// from resolving it. Sources of a target that needs a trait sit inside `#if TraitName`, so
// `swift build` and `swift build --build-tests` work with any set of traits (a product whose
// trait is off is an empty module); `swift build -c release --enable-all-traits` builds
// every product, and scripts/test builds the tests that way.

/// Settings every TokenKit target is built with: Swift 6 strict concurrency comes from the
/// language mode; `ExistentialAny` keeps existential costs visible.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

/// Conditions for target dependencies that only exist with a trait.
let postgres = TargetDependencyCondition.when(traits: ["Postgres"])
let asyncHTTPClient = TargetDependencyCondition.when(traits: ["AsyncHTTPClient"])
let hummingbird = TargetDependencyCondition.when(traits: ["Hummingbird"])

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
        // Token lifetime auditing engine used by `tokenkit audit`.
        .library(name: "TokenKitAudit", targets: ["TokenKitAudit"]),
        // The command line. `--backend postgres` needs the Postgres trait.
        .executable(name: "tokenkit", targets: ["tokenkit"]),
        // Trait AsyncHTTPClient: HTTPTransport adapter for AsyncHTTPClient.
        .library(name: "TokenKitAsyncHTTPClient", targets: ["TokenKitAsyncHTTPClient"]),
        // Trait Postgres: a shared TokenStore and RefreshLock in PostgreSQL (postgres-nio).
        .library(name: "TokenKitPostgres", targets: ["TokenKitPostgres"]),
        // Trait Hummingbird: Bearer-token authenticator middleware (hummingbird-auth's model).
        .library(name: "TokenKitHummingbird", targets: ["TokenKitHummingbird"]),
        // Trait Hummingbird: the example API protected by a remote JWKS, with /metrics.
        .executable(name: "resource-server", targets: ["resource-server"]),
        // The test support every TokenKit test target uses (the child-process runner, the
        // binary locator, the service gate, ...), for the reference apps' tests in their own
        // package. Not API: it changes with TokenKit's tests.
        .library(name: "TokenKitTestSupport", targets: ["TokenKitTestSupport"]),
    ],
    traits: [
        .trait(
            name: "Postgres",
            description: "The PostgreSQL backend: the TokenKitPostgres product and `tokenkit --backend postgres` (postgres-nio, SwiftNIO, swift-nio-ssl)."),
        .trait(
            name: "AsyncHTTPClient",
            description: "The TokenKitAsyncHTTPClient product: the HTTP transport over AsyncHTTPClient (SwiftNIO, swift-nio-ssl)."),
        .trait(
            name: "Hummingbird",
            description: "The TokenKitHummingbird middleware and the resource-server example (Hummingbird, hummingbird-auth, swift-prometheus, SwiftNIO); also the local HTTP servers of the tests.",
            enabledTraits: ["AsyncHTTPClient"]),  // resource-server fetches its JWKS with it
        .default(enabledTraits: []),
    ],
    dependencies: [
        // Always resolved: the CLI's argument parsing; logging, metrics and spans of the
        // remote keys, refresh and sign-in (the library emits through the APIs only; the
        // application bootstraps a backend, issue 29).
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        // Resolved by this package, never by its dependents (a command plugin cannot be put
        // behind a trait): `swift package generate-documentation --target TokenKit`.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
        // Resolved only with their trait.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.24.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.5.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.0.0"),
        // resource-server's /metrics: the Prometheus backend the example bootstraps.
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // resource-server's and the test servers' graceful stop (in Hummingbird's graph).
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.0.0"),
    ],
    targets: [
        // MARK: C libraries (system packages: libssl-dev, libsecret-1-dev)
        .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CLibSecret", pkgConfig: "libsecret-1", providers: [.apt(["libsecret-1-dev"])]),

        // MARK: Libraries
        .target(name: "TokenKitTime", swiftSettings: strictSettings),
        // The small primitives several rooms share (issue 23): the one exact (byte-for-byte)
        // comparison and ExactKey, the one constant-time comparison, the ASCII character
        // classes of the OAuth/JOSE grammars. No dependencies; under every other target.
        .target(name: "TokenKitPrimitives", swiftSettings: strictSettings),
        .target(name: "TokenKitCrypto", dependencies: ["COpenSSL", "TokenKitPrimitives"], swiftSettings: strictSettings),
        .target(name: "TokenKit", dependencies: ["TokenKitCrypto", "TokenKitTime", "TokenKitPrimitives"], swiftSettings: strictSettings),
        // TokenKitStore reads token sets with the JWT core's strict JSON reader (issue 24: one
        // grammar for everything from outside), and holds the RefreshLock next to TokenStore.
        .target(
            name: "TokenKitStore",
            dependencies: ["TokenKit", "TokenKitCrypto", "TokenKitTime", "TokenKitPrimitives"],
            swiftSettings: strictSettings),
        .target(
            name: "TokenKitSecretService",
            dependencies: ["TokenKitStore", "CLibSecret", "TokenKitPrimitives"],
            swiftSettings: strictSettings),
        // The room of every HTTP fetch (issue 23): the transport protocol with its fetch gate,
        // remote key sources and discovery. Knows nothing of stores, sign-in or refresh.
        .target(
            name: "TokenKitRemote",
            dependencies: [
                "TokenKit", "TokenKitTime", "TokenKitPrimitives",
                .product(name: "Logging", package: "swift-log"),
                // JWKS fetch and refresh metrics and spans (issue 29).
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: strictSettings),
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
            swiftSettings: strictSettings),
        .target(name: "TokenKitURLSession", dependencies: ["TokenKitRemote"], swiftSettings: strictSettings),
        .target(
            name: "TokenKitAudit",
            dependencies: ["TokenKit", "TokenKitCrypto", "TokenKitStore", "TokenKitPrimitives"],
            swiftSettings: strictSettings),
        // Trait AsyncHTTPClient (sources inside `#if AsyncHTTPClient`).
        .target(
            name: "TokenKitAsyncHTTPClient",
            dependencies: [
                "TokenKitRemote",
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: asyncHTTPClient),
            ],
            swiftSettings: strictSettings),
        // Trait Postgres (sources inside `#if Postgres`): PostgresTokenStore and
        // PostgresRefreshLock over postgres-nio. It depends on the store room only.
        .target(
            name: "TokenKitPostgres",
            dependencies: [
                "TokenKitStore", "TokenKitCrypto", "TokenKitPrimitives",
                .product(name: "PostgresNIO", package: "postgres-nio", condition: postgres),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings),
        // Trait Hummingbird (sources inside `#if Hummingbird`).
        .target(
            name: "TokenKitHummingbird",
            dependencies: [
                "TokenKit", "TokenKitPrimitives",
                .product(name: "Hummingbird", package: "hummingbird", condition: hummingbird),
                .product(name: "HummingbirdAuth", package: "hummingbird-auth", condition: hummingbird),
                // Verification metrics and spans (issue 29).
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: strictSettings),

        // MARK: The CLI
        // What the release link adds (scripts/build-tokenkit-release, for scripts/install and
        // scripts/package-deb), as weak symbols: the commit `tokenkit --version` names, and
        // libcurl loaded on the first HTTP request instead of at start-up. Other builds have
        // neither ("commit unknown"; libcurl linked as usual).
        .systemLibrary(name: "CReleaseLink"),
        .executableTarget(
            name: "tokenkit",
            dependencies: [
                "TokenKit", "TokenKitStore", "TokenKitSecretService", "TokenKitAuth", "TokenKitURLSession",
                "TokenKitAudit", "TokenKitPrimitives", "CReleaseLink",
                .target(name: "TokenKitPostgres", condition: postgres),  // --backend postgres
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings),

        // MARK: Examples (compiled and run by ExamplesTests)
        .executableTarget(
            name: "issue-and-verify",
            dependencies: ["TokenKit"],
            path: "Examples/IssueAndVerify",
            swiftSettings: strictSettings),
        // Trait Hummingbird; without it the binary only says how to build it (exit 64).
        .executableTarget(
            name: "resource-server",
            dependencies: [
                "TokenKit", "TokenKitRemote",
                .target(name: "TokenKitHummingbird", condition: hummingbird),
                .target(name: "TokenKitAsyncHTTPClient", condition: asyncHTTPClient),
                // Conditional too, so that without the trait (no command line to describe)
                // swift-argument-parser's generate-manual plugin skips this product.
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: hummingbird),
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: asyncHTTPClient),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Hummingbird", package: "hummingbird", condition: hummingbird),
                .product(name: "HummingbirdAuth", package: "hummingbird-auth", condition: hummingbird),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus", condition: hummingbird),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: hummingbird),
            ],
            path: "Examples/ResourceServer",
            swiftSettings: strictSettings),

        // MARK: Test support (not products, except TokenKitTestSupport for the reference apps)
        // Helpers every test target may use (issue 9: one copy instead of one per target):
        // the child-process runner, EINTR-safe pipe I/O, seeded random inputs, hex vectors, the
        // Python interop peer, the skip-or-fail gate for missing services.
        .target(
            name: "TokenKitTestSupport",
            dependencies: ["TokenKitTime"],
            path: "Tests/TestSupport",
            swiftSettings: strictSettings),
        // Trait Hummingbird: the in-process Hummingbird servers of the tests (one way to start
        // one on loopback, learn its port and stop it gracefully).
        .target(
            name: "HTTPServerTestSupport",
            dependencies: [
                "TokenKitTestSupport",
                .product(name: "Hummingbird", package: "hummingbird", condition: hummingbird),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: hummingbird),
            ],
            path: "Tests/HTTPServerTestSupport",
            swiftSettings: strictSettings),
        // Trait Postgres: the private PostgreSQL servers of scripts/with-postgres.
        .target(
            name: "PostgresTestSupport",
            dependencies: [
                "TokenKitStore", "TokenKitTestSupport",
                .target(name: "TokenKitPostgres", condition: postgres),
            ],
            path: "Tests/PostgresTestSupport",
            swiftSettings: strictSettings),
        // The live-Secret-Service gate (the library's probe) for the suites that link the
        // Secret Service backend.
        .target(
            name: "SecretServiceTestSupport",
            dependencies: ["TokenKitSecretService", "TokenKitTestSupport"],
            path: "Tests/SecretServiceTestSupport",
            swiftSettings: strictSettings),
        // Child processes of the store tests (crash and concurrency): writes to an encrypted
        // file store in a loop.
        .executableTarget(
            name: "tokenkit-store-stress",
            dependencies: ["TokenKitStore"],
            path: "Tests/StoreStress",
            swiftSettings: strictSettings),
        // Child process of the unlock-prompt tests, in a private, locked keyring (libsecret
        // keeps one session-bus connection per process).
        .executableTarget(
            name: "tokenkit-secret-service-helper",
            dependencies: ["TokenKitSecretService", "TokenKitStore"],
            path: "Tests/SecretServiceHelper",
            swiftSettings: strictSettings),
        // Trait Postgres: child processes of the PostgreSQL refresh tests and benchmark (8
        // processes sharing one credential, SIGKILL mid-refresh).
        .executableTarget(
            name: "tokenkit-refresh-stress",
            dependencies: [
                "TokenKitAuth", "TokenKitStore", "TokenKitURLSession",
                .target(name: "TokenKitPostgres", condition: postgres),
            ],
            path: "Tests/RefreshStress",
            swiftSettings: strictSettings),

        // MARK: Tests (scripts/test builds them once with --enable-all-traits; a suite that
        // needs a trait is compiled only with it)
        .testTarget(name: "TokenKitTestSupportTests", dependencies: ["TokenKitTestSupport"], swiftSettings: strictSettings),
        .testTarget(name: "TokenKitPrimitivesTests", dependencies: ["TokenKitPrimitives"], swiftSettings: strictSettings),
        // The OpenSSL wrapper's own tests: known answers, refusals and error reasons of the
        // primitives, without the JWT layer on top.
        .testTarget(
            name: "TokenKitCryptoTests",
            dependencies: ["TokenKitCrypto", "TokenKitTestSupport"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "TokenKitTests",
            dependencies: ["TokenKit", "TokenKitCrypto", "TokenKitTestSupport"],
            resources: [.copy("Vectors")],
            swiftSettings: strictSettings),
        .testTarget(
            name: "TokenKitStoreTests",
            dependencies: [
                "TokenKitStore", "TokenKitSecretService", "TokenKitCrypto", "tokenkit-store-stress",
                "tokenkit-secret-service-helper", "SecretServiceTestSupport", "TokenKitTestSupport",
                .target(name: "TokenKitPostgres", condition: postgres),
                .target(name: "PostgresTestSupport", condition: postgres),
            ],
            swiftSettings: strictSettings),
        .testTarget(
            name: "TokenKitSecretServiceTests",
            dependencies: ["TokenKitSecretService", "TokenKitStore", "SecretServiceTestSupport", "TokenKitTestSupport"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "TokenKitStoreCLITests",
            // TokenKitStore: a test writes a store as another program could (fields the CLI must clean).
            dependencies: ["tokenkit", "TokenKitStore", "TokenKitTestSupport"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "TokenKitAuditTests",
            dependencies: ["TokenKitAudit", "TokenKit", "TokenKitStore", "TokenKitTestSupport"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "TokenKitAuditCLITests",
            dependencies: ["tokenkit", "TokenKit", "TokenKitTestSupport"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "TokenKitCLITests",
            dependencies: ["tokenkit", "TokenKitTestSupport"],
            resources: [.copy("Fixtures")],
            swiftSettings: strictSettings),
        // Trait Hummingbird (its token endpoints are local Hummingbird servers); the PostgreSQL
        // suites also need Postgres.
        .testTarget(
            name: "TokenKitAuthTests",
            dependencies: [
                "TokenKitAuth", "TokenKitTestSupport",
                // The service test server verifies assertions and DPoP proofs with TokenKit.
                "TokenKit", "TokenKitCrypto", "TokenKitStore", "TokenKitURLSession",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .target(name: "HTTPServerTestSupport", condition: hummingbird),
                .product(name: "Hummingbird", package: "hummingbird", condition: hummingbird),
                .target(name: "TokenKitAsyncHTTPClient", condition: asyncHTTPClient),
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: asyncHTTPClient),
                .target(name: "TokenKitPostgres", condition: postgres),
                .target(name: "PostgresTestSupport", condition: postgres),
                .target(name: "tokenkit-refresh-stress", condition: postgres),
            ],
            swiftSettings: strictSettings),
        // Trait Postgres.
        .testTarget(
            name: "TokenKitPostgresTests",
            dependencies: [
                "TokenKitAuth", "TokenKitStore", "TokenKitTestSupport",
                .target(name: "TokenKitPostgres", condition: postgres),
                .target(name: "PostgresTestSupport", condition: postgres),
                .product(name: "PostgresNIO", package: "postgres-nio", condition: postgres),  // the TLS mapping tests read its configuration
            ],
            swiftSettings: strictSettings),
        // Trait Hummingbird.
        .testTarget(
            name: "TokenKitHummingbirdTests",
            dependencies: [
                "TokenKitAuth", "TokenKitURLSession",
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .target(name: "TokenKitHummingbird", condition: hummingbird),
                .target(name: "TokenKitAsyncHTTPClient", condition: asyncHTTPClient),
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: asyncHTTPClient),
                .product(name: "Hummingbird", package: "hummingbird", condition: hummingbird),
                .product(name: "HummingbirdAuth", package: "hummingbird-auth", condition: hummingbird),
                .product(name: "HummingbirdTesting", package: "hummingbird", condition: hummingbird),
            ],
            swiftSettings: strictSettings),
        // Trait Hummingbird: the test servers' own tests (serving, errors, a stop while
        // connections arrive).
        .testTarget(
            name: "HTTPServerTestSupportTests",
            dependencies: [
                "TokenKitTestSupport",
                .target(name: "HTTPServerTestSupport", condition: hummingbird),
                .product(name: "Hummingbird", package: "hummingbird", condition: hummingbird),
            ],
            swiftSettings: strictSettings),
        // The examples run end to end (resource-server with the Hummingbird trait).
        .testTarget(
            name: "ExamplesTests",
            dependencies: [
                "issue-and-verify", "TokenKit", "TokenKitTestSupport",
                .target(name: "resource-server", condition: hummingbird),
                .target(name: "HTTPServerTestSupport", condition: hummingbird),
                .product(name: "Hummingbird", package: "hummingbird", condition: hummingbird),
            ],
            swiftSettings: strictSettings),
        // Issue 27 item 2: every ```swift block of README.md, Examples/README.md and the DocC
        // articles, extracted by scripts/extract-snippets into Generated/ and compiled here as
        // written; the blocks use every integration, so they compile in a build with all three
        // traits (scripts/test builds every trait) and the target says so otherwise.
        .testTarget(
            name: "ReadmeSnippetTests",
            dependencies: [
                "TokenKit", "TokenKitStore", "TokenKitRemote", "TokenKitAuth", "TokenKitURLSession", "TokenKitTestSupport",
                .target(name: "TokenKitPostgres", condition: postgres),
                .target(name: "TokenKitHummingbird", condition: hummingbird),
                .target(name: "TokenKitAsyncHTTPClient", condition: asyncHTTPClient),
                .product(name: "Hummingbird", package: "hummingbird", condition: hummingbird),
                .product(name: "HummingbirdAuth", package: "hummingbird-auth", condition: hummingbird),
            ],
            swiftSettings: strictSettings + [
                .define("TOKENKIT_README_SNIPPETS_POSTGRES", .when(traits: ["Postgres"])),
                .define("TOKENKIT_README_SNIPPETS_HUMMINGBIRD", .when(traits: ["Hummingbird"])),
                .define("TOKENKIT_README_SNIPPETS_ASYNCHTTPCLIENT", .when(traits: ["AsyncHTTPClient"])),
            ]),

        // MARK: Fuzzing (issue 9)
        // libFuzzer harnesses under Fuzz/, seed corpora in Fuzz/Corpus/. `scripts/fuzz` builds
        // them with -sanitize=fuzzer,address and -DTOKENKIT_FUZZING in its own scratch path;
        // an ordinary build makes corpus-replay executables of the same harnesses
        // (`fuzz-json-reader DIR...`).
        .target(name: "CFuzzDriver", path: "Fuzz/Driver"),
        .target(name: "FuzzSupport", dependencies: ["CFuzzDriver"], path: "Fuzz/Support", swiftSettings: strictSettings),
        .executableTarget(
            name: "fuzz-json-reader",
            dependencies: ["TokenKit", "FuzzSupport"],
            path: "Fuzz/JSONReader",
            swiftSettings: strictSettings),
        .executableTarget(
            name: "fuzz-jws-verify",
            dependencies: ["TokenKit", "FuzzSupport"],
            path: "Fuzz/JWSVerify",
            swiftSettings: strictSettings),
        .executableTarget(
            name: "fuzz-key-loading",
            dependencies: ["TokenKit", "FuzzSupport"],
            path: "Fuzz/KeyLoading",
            swiftSettings: strictSettings),
        // Issue 28: compact-JWE decryption and x5c chain verification.
        .executableTarget(
            name: "fuzz-jwe-decrypt",
            dependencies: ["TokenKit", "FuzzSupport"],
            path: "Fuzz/JWEDecrypt",
            swiftSettings: strictSettings),
        .executableTarget(
            name: "fuzz-x5c-chain",
            dependencies: ["TokenKit", "FuzzSupport"],
            path: "Fuzz/X5CChain",
            swiftSettings: strictSettings),
        // Every seed corpus and past finding, replayed by the fuzz targets' replay builds.
        .testTarget(
            name: "FuzzReplayTests",
            dependencies: ["fuzz-json-reader", "fuzz-jws-verify", "fuzz-key-loading", "fuzz-jwe-decrypt", "fuzz-x5c-chain", "TokenKitTestSupport"],
            swiftSettings: strictSettings),
    ]
)
