// swift-tools-version:6.1
// libFuzzer targets for what feedweb reads from outside: SSE, JSON, JSON Pointer and Patch,
// requests through the router, the state file, the upstream dialects, how a first document's
// items are found. A separate package,
// so the main build and `swift test` never build it. Built and run by `make fuzz`
// (Fuzz/fuzz.sh): `swift build -c release --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address`, then each
// target for FUZZ_SECONDS over its seed corpus in Corpus/.
import PackageDescription

/// One fuzz target: `Sources/NAME`, a `LLVMFuzzerTestOneInput` over the package's products.
func fuzzTarget(_ name: String, _ products: [String]) -> Target {
    .executableTarget(
        name: name,
        dependencies: ["FuzzSupport"] + products.map { .product(name: $0, package: "feedweb") }
    )
}

let package = Package(
    name: "Fuzz",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "feedweb", path: "..")
    ],
    targets: [
        // Reading a fuzzer's input as several values; checks that stop the run with a message.
        .target(name: "FuzzSupport"),
        fuzzTarget("FuzzSSEParser", ["FeedCore"]),
        fuzzTarget("FuzzJSONParser", ["FeedCore"]),
        fuzzTarget("FuzzJSONPointer", ["FeedCore"]),
        fuzzTarget("FuzzJSONPatch", ["FeedCore"]),
        fuzzTarget("FuzzRouter", ["FeedCore", "WebUI"]),
        fuzzTarget("FuzzStateFile", ["FeedCore"]),
        fuzzTarget("FuzzUpstreamDialects", ["FeedCore"]),
        fuzzTarget("FuzzItemShapes", ["FeedCore"]),
    ],
    swiftLanguageModes: [.v6]
)
