import FeedCore
import Foundation

// Release-mode timing of the SSE parser and encoder (figures in BENCHMARKS.md).
//   swift run -c release SSEBench

struct Rng {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

nonisolated(unsafe) var rng = Rng(state: 42)

/// A ~30 KB one-line JSON document, like Streamdata's first `data` event.
func jsonDocument(_ n: Int) -> String {
    var items: [String] = []
    var size = 0
    var k = 0
    while size < 30_000 {
        let item =
            "{\"id\":\(k),\"symbol\":\"SYM\(k)\",\"name\":\"Société Générale \(k) — ünïcödé\",\"price\":\(Double(rng.next() % 100_000) / 100),\"volume\":\(rng.next() % 1_000_000),\"tags\":[\"a\",\"b\"],\"open\":true}"
        items.append(item)
        size += item.utf8.count + 1
        k += 1
    }
    return "{\"doc\":\(n),\"items\":[" + items.joined(separator: ",") + "]}"
}

/// A ~300-byte JSON Patch.
func patch(_ n: Int) -> String {
    var ops: [String] = []
    var size = 0
    while size < 260 {
        let op =
            "{\"op\":\"replace\",\"path\":\"/items/\(rng.next() % 200)/price\",\"value\":\(Double(rng.next() % 100_000) / 100)}"
        ops.append(op)
        size += op.utf8.count + 1
    }
    return "[" + ops.joined(separator: ",") + "]"
}

func makeStream(targetBytes: Int, patchesPerDocument: Int) -> (bytes: [UInt8], events: Int) {
    var out: [UInt8] = []
    out.reserveCapacity(targetBytes + 40_000)
    var events = 0
    var id = 0
    let docs = (0..<4).map(jsonDocument)
    let patches = (0..<64).map(patch)
    while out.count < targetBytes {
        if patchesPerDocument >= 0 {
            id += 1
            SSEEncoder.event(type: "data", data: docs[id % docs.count], id: String(id), into: &out)
            events += 1
        }
        for p in 0..<max(patchesPerDocument, 0) {
            id += 1
            SSEEncoder.event(type: "patch", data: patches[(id + p) % patches.count], id: String(id), into: &out)
            events += 1
            if p % 10 == 9 { SSEEncoder.comment("heartbeat", into: &out) }
        }
        if patchesPerDocument < 0 {
            for _ in 0..<100 {
                id += 1
                SSEEncoder.event(type: "patch", data: patches[id % patches.count], id: String(id), into: &out)
                events += 1
            }
        }
    }
    return (out, events)
}

func median(_ xs: [Double]) -> Double {
    let s = xs.sorted()
    return s[s.count / 2]
}

func seconds(_ d: Duration) -> Double {
    let c = d.components
    return Double(c.seconds) + Double(c.attoseconds) * 1e-18
}

func benchParse(_ label: String, _ stream: (bytes: [UInt8], events: Int), chunkSize: Int, runs: Int = 25) {
    let clock = ContinuousClock()
    var times: [Double] = []
    var checksum = 0
    for _ in 0..<runs {
        var parser = SSEParser()
        var events: [SSEEvent] = []
        events.reserveCapacity(1024)
        var count = 0
        let t = clock.measure {
            stream.bytes.withUnsafeBytes { all in
                var i = 0
                while i < all.count {
                    let end = min(i + chunkSize, all.count)
                    events.removeAll(keepingCapacity: true)
                    do {
                        try parser.parse(UnsafeRawBufferPointer(rebasing: all[i..<end]), into: &events)
                    } catch {
                        fatalError("\(error)")
                    }
                    count += events.count
                    for e in events { checksum &+= e.data.utf8.count }
                    i = end
                }
            }
            parser.finish()
        }
        precondition(count == stream.events, "parsed \(count) events, expected \(stream.events)")
        times.append(seconds(t))
    }
    let mb = Double(stream.bytes.count) / 1e6
    let best = times.min() ?? 0
    let med = median(times)
    print(
        "\(label): \(String(format: "%.2f", mb)) MB, \(stream.events) events, \(chunkSize)-byte chunks: median \(String(format: "%.2f", med * 1000)) ms = \(Int(mb / med)) MB/s, \(Int(Double(stream.events) / med)) events/s (best \(String(format: "%.2f", best * 1000)) ms = \(Int(mb / best)) MB/s) [checksum \(checksum % 1000)]"
    )
}

func benchEncode(runs: Int = 15) {
    let patches = (0..<64).map(patch)
    let ids = (0..<100_000).map { String($0 + 1_000_000) }
    let clock = ContinuousClock()
    var intoTimes: [Double] = []
    var newTimes: [Double] = []
    var out: [UInt8] = []
    var total = 0
    for _ in 0..<runs {
        out.removeAll(keepingCapacity: true)
        intoTimes.append(
            seconds(
                clock.measure {
                    for i in 0..<100_000 {
                        SSEEncoder.event(type: "patch", data: patches[i & 63], id: ids[i], into: &out)
                    }
                }))
        total &+= out.count
        newTimes.append(
            seconds(
                clock.measure {
                    for i in 0..<100_000 {
                        total &+= SSEEncoder.event(type: "patch", data: patches[i & 63], id: ids[i]).count
                    }
                }))
    }
    let perInto = median(intoTimes) / 100_000 * 1e9
    let perNew = median(newTimes) / 100_000 * 1e9
    print(
        "encode 100k patch events (~\(out.count / 100_000) bytes each): into: buffer \(Int(perInto)) ns/event (\(Int(Double(out.count) / 1e6 / median(intoTimes))) MB/s); new array each \(Int(perNew)) ns/event [\(total % 7)]"
    )
}

let only = CommandLine.arguments.dropFirst().first ?? "all"
if only == "all" || only == "parse" {
    let heavy = makeStream(targetBytes: 10_000_000, patchesPerDocument: 10)
    let patchesOnly = makeStream(targetBytes: 10_000_000, patchesPerDocument: -1)
    let runs = only == "parse" ? 200 : 25
    benchParse("data-heavy mix (30 KB docs + 10 patches each)", heavy, chunkSize: 16 * 1024, runs: runs)
    benchParse("patch-only (300-byte events)            ", patchesOnly, chunkSize: 16 * 1024, runs: runs)
    benchParse("data-heavy mix, 1 KiB chunks             ", heavy, chunkSize: 1024)
    benchParse("data-heavy mix, one 10 MB chunk          ", heavy, chunkSize: heavy.bytes.count)
}
if only == "all" || only == "encode" {
    benchEncode(runs: only == "encode" ? 100 : 15)
}
