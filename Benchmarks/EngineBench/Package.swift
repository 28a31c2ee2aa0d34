// swift-tools-version:6.1
// The engine's hot paths timed in release mode: JSON parse/serialize/patch/diff and SSE
// parse/encode over feedweb's own FeedCore. Kept out of the main package so that CI does not
// build it. Run from this folder:
//   swift run -c release JSONBench
//   swift run -c release SSEBench
import PackageDescription

let package = Package(
    name: "EngineBench",
    platforms: [.macOS(.v14)],
    dependencies: [.package(name: "feedweb", path: "../..")],
    targets: [
        .executableTarget(name: "JSONBench", dependencies: [.product(name: "FeedCore", package: "feedweb")]),
        .executableTarget(name: "SSEBench", dependencies: [.product(name: "FeedCore", package: "feedweb")]),
    ],
    swiftLanguageModes: [.v6]
)
