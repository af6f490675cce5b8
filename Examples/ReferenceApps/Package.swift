// swift-tools-version:6.1
import Foundation
import PackageDescription

// The reference apps (issue 13): Cleveroo, the JWT dashboard, PokeMe and the DAM API client,
// each a server and a client running on TokenKit. They live in their own package so that
// depending on TokenKit never resolves GRDB (SQLite, Cleveroo's database) nor builds what
// only the apps use, HummingbirdBcrypt (password hashing). hummingbird-auth itself is
// already a TokenKit dependency (TokenKitHummingbird, behind TokenKit's Hummingbird trait,
// enabled below); bearer authentication here is that product's, not the apps' own.

// SwiftPM names a path dependency after its directory, so the root package's identity is
// whatever the clone (or worktree) is called.
let rootIdentity = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

/// Settings every target here is built with (the same as TokenKit's own).
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "ReferenceApps",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "cleveroo-server", targets: ["cleveroo-server"]),
        .executable(name: "cleveroo", targets: ["cleveroo"]),
        .executable(name: "dashboard-server", targets: ["dashboard-server"]),
        .executable(name: "jwt-client", targets: ["jwt-client"]),
        .executable(name: "pokeme-server", targets: ["pokeme-server"]),
        .executable(name: "pokeme", targets: ["pokeme"]),
        .executable(name: "dam-server", targets: ["dam-server"]),
        .executable(name: "dam", targets: ["dam"]),
    ],
    dependencies: [
        .package(path: "../..", traits: ["Hummingbird"]),  // TokenKitHummingbird
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.5.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
    ],
    targets: [
        // What every reference server shares: the ES256 issuer and its JWKS (TokenKit's
        // SigningKeySet), refresh-token families, JSON errors, bearer protection (TokenKit's
        // Hummingbird authenticator and role middleware), start-up and shutdown.
        .target(
            name: "AppServerKit",
            dependencies: [
                .product(name: "TokenKit", package: rootIdentity),
                .product(name: "TokenKitHummingbird", package: rootIdentity),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdAuth", package: "hummingbird-auth"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
        // What every reference client shares: the store options, password reading, the API
        // client over AuthorizingHTTPTransport and the /auth/refresh refresher.
        .target(
            name: "AppClientKit",
            dependencies: [
                .product(name: "TokenKitAuth", package: rootIdentity),
                .product(name: "TokenKitStore", package: rootIdentity),
                .product(name: "TokenKitSecretService", package: rootIdentity),
                .product(name: "TokenKitURLSession", package: rootIdentity),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "cleveroo-server",
            dependencies: ["AppServerKit", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Sources/CleverooServer",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "cleveroo",
            dependencies: ["AppClientKit"],
            path: "Sources/Cleveroo",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "dashboard-server",
            dependencies: ["AppServerKit"],
            path: "Sources/DashboardServer",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "jwt-client",
            dependencies: ["AppClientKit"],
            path: "Sources/Dashboard",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "pokeme-server",
            dependencies: ["AppServerKit"],
            path: "Sources/PokeMeServer",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "pokeme",
            dependencies: ["AppClientKit"],
            path: "Sources/PokeMe",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "dam-server",
            dependencies: ["AppServerKit"],
            path: "Sources/DAMServer",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "dam",
            dependencies: ["AppClientKit"],
            path: "Sources/DAM",
            swiftSettings: strictSettings
        ),
        // Runs the built binaries as a user would: servers on 127.0.0.1 with --port 0,
        // client processes, real stores.
        .testTarget(
            name: "ReferenceAppsTests",
            dependencies: [
                "cleveroo-server", "cleveroo", "dashboard-server", "jwt-client",
                "pokeme-server", "pokeme", "dam-server", "dam",
                // Verifies the servers' tokens with their published JWKS.
                .product(name: "TokenKit", package: rootIdentity),
                // The one test-support layer (process runner, binary locator, service gate).
                .product(name: "TokenKitTestSupport", package: rootIdentity),
            ],
            swiftSettings: strictSettings
        ),
    ]
)
