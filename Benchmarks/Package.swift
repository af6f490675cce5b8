// swift-tools-version:6.0
// The benchmark package is separate from the root package on purpose: users of TokenKit never
// resolve jwt-kit or swift-crypto through the root Package.swift.
import Foundation
import PackageDescription

// SwiftPM names a path dependency after its directory, so the root package's identity is
// whatever the clone (or worktree, or Benchmarks/ab's copy of a base commit) is called.
let rootDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
let rootIdentity = rootDirectory.lastPathComponent

// The remote key sources moved from TokenKitAuth into TokenKitRemote (issue 23). Benchmarks/ab
// builds this package against commits from both sides of the move, so the manifest looks at
// the root package it is built against and names the module that has them.
let hasRemoteTarget = FileManager.default.fileExists(
    atPath: rootDirectory.appendingPathComponent("Sources/TokenKitRemote").path)
let remoteKeysProduct: Target.Dependency = .product(
    name: hasRemoteTarget ? "TokenKitRemote" : "TokenKitAuth", package: rootIdentity)

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
        // What both executables measure TokenKit with: the timing loops, the keys and claims,
        // TokenKit's cases, and the warm remote key source on a loopback server. TokenKit
        // only (no jwt-kit), so that TokenKitAB builds without swift-crypto.
        .target(
            name: "BenchCore",
            dependencies: [
                .product(name: "TokenKit", package: rootIdentity),
                .product(name: "TokenKitURLSession", package: rootIdentity),
                remoteKeysProduct,
                "CBenchSupport",
            ],
            swiftSettings: hasRemoteTarget ? [.define("TOKENKIT_HAS_REMOTE_TARGET")] : []
        ),
        // TokenKit vs jwt-kit vs raw OpenSSL, 2-thread and remote-key rows, audit, stores.
        .executableTarget(
            name: "TokenKitBench",
            dependencies: [
                "BenchCore",
                .product(name: "TokenKit", package: rootIdentity),
                .product(name: "TokenKitStore", package: rootIdentity),
                .product(name: "TokenKitSecretService", package: rootIdentity),
                .product(name: "JWTKit", package: "jwt-kit"),
                "CBenchSupport",
            ]
        ),
        // One side of Benchmarks/ab (a base commit against the working tree, in one run).
        .executableTarget(
            name: "TokenKitAB",
            dependencies: [
                "BenchCore",
                .product(name: "TokenKit", package: rootIdentity),
                "CBenchSupport",  // the malloc interposer: allocations per operation
            ]
        ),
    ],
    // A benchmark harness with C globals and raw buffers shared between threads: Swift 5 mode.
    swiftLanguageModes: [.v5]
)
