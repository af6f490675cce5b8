// swift-tools-version:6.0
// The benchmark package is separate from the root package on purpose: users of TokenKit never
// resolve jwt-kit or swift-crypto through the root Package.swift.
import Foundation
import PackageDescription

// SwiftPM names a path dependency after its directory, so the root package's identity is
// whatever the clone (or worktree) is called.
let rootIdentity = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "TokenKitBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.2.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CBenchOpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"])]
        ),
        .target(name: "CBenchSupport", dependencies: ["CBenchOpenSSL"]),
        .executableTarget(
            name: "TokenKitBench",
            dependencies: [
                .product(name: "TokenKit", package: rootIdentity),
                .product(name: "TokenKitStore", package: rootIdentity),
                .product(name: "TokenKitSecretService", package: rootIdentity),
                // The warm-remote-JWKS row (issue 11): RemoteJWKS over URLSession on loopback.
                .product(name: "TokenKitAuth", package: rootIdentity),
                .product(name: "TokenKitURLSession", package: rootIdentity),
                .product(name: "JWTKit", package: "jwt-kit"),
                "CBenchSupport",
            ]
        ),
    ],
    // A benchmark harness with C globals and raw buffers shared between threads: Swift 5 mode.
    swiftLanguageModes: [.v5]
)
