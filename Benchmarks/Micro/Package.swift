// swift-tools-version:6.1
// Micro-benchmarks of feedweb's hot paths with ordo-one/benchmark (time, CPU
// and allocation counts). A separate package, so the main build and CI never build it.
// Run from this folder (or `make bench-micro` at the top):
//   swift package benchmark                        # every benchmark
//   swift package benchmark --target Engine        # FeedCore: SSE parse, JSON Patch, store commits, diff, JSON
//   swift package benchmark --target Server        # WebUI: page render, fan-out, one append step end to end
import PackageDescription

let package = Package(
    name: "Micro",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "feedweb", path: "../.."),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // The inputs: an NYT-Times-Newswire-shaped document, patches, SSE streams.
        .target(
            name: "MicroFixtures",
            dependencies: [.product(name: "FeedCore", package: "feedweb")]
        ),
        .executableTarget(
            name: "Engine",
            dependencies: [
                "MicroFixtures",
                .product(name: "FeedCore", package: "feedweb"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/Engine",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "Server",
            dependencies: [
                "MicroFixtures",
                .product(name: "FeedCore", package: "feedweb"),
                .product(name: "WebUI", package: "feedweb"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/Server",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
