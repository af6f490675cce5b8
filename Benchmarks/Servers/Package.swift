// swift-tools-version:6.0
// The two comparison servers of Benchmarks/wrk-three-servers (issue 29): the same `GET /me`
// and `GET /healthz` as Examples/ResourceServer, written the way each framework's users write
// them. A package of its own: Vapor and jwt-kit never enter the root package's graph, nor the
// benchmark package's (Benchmarks/Package.swift).
import PackageDescription

let package = Package(
    name: "TokenKitBenchServers",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.5.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.0.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.24.0"),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.2.0"),
        .package(url: "https://github.com/vapor/jwt", from: "5.0.0"),
        .package(url: "https://github.com/vapor/vapor", from: "4.100.0"),
    ],
    targets: [
        // What both servers share: the command line, the claims and the start-up JWKS fetch.
        .target(
            name: "BenchServerSupport",
            dependencies: [
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
        // Hummingbird 2 + jwt-kit, verifying in a hummingbird-auth authenticator middleware.
        .executableTarget(
            name: "hb-jwtkit-server",
            dependencies: [
                "BenchServerSupport",
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdAuth", package: "hummingbird-auth"),
            ]
        ),
        // Vapor 4 + vapor/jwt (`req.jwt.verify(as:)`).
        .executableTarget(
            name: "vapor-jwt-server",
            dependencies: [
                "BenchServerSupport",
                .product(name: "JWT", package: "jwt"),
                .product(name: "Vapor", package: "vapor"),
            ]
        ),
    ]
)
