import FeedCore
import Foundation
import TestSupport
import Testing

@testable import WebUI

/// A pod list over HTTP: its containers ready (`1/2`, marked short of all) and their
/// restarts on the table, sorted by them, a rise in restarts bad news, and first among a tile's facts.
@Suite(.timeLimit(.minutes(2)), .onThreadsOfItsOwn)
struct TallyCellTests {
    @Test("pods' containers ready and restarts: shown, compared, sorted; restarts rising is bad news")
    func podsShown() async throws {
        func pod(_ name: String, ready: [Bool], restarts: [Int], phase: String = "Running") -> JSONValue {
            .object([
                "metadata": .object(["name": .string(name), "namespace": .string("default")]),
                "status": .object([
                    "phase": .string(phase),
                    "containerStatuses": .array(
                        zip(ready, restarts).map {
                            .object(["name": .string("c"), "ready": .bool($0), "restartCount": .int(Int64($1))])
                        }),
                ]),
            ])
        }
        let server = try TestServer(
            document: .object([
                "items": .array([
                    pod("web-1", ready: [true, false], restarts: [0, 1]),
                    pod("api-1", ready: [true], restarts: [7]),
                    pod("db-1", ready: [true, true], restarts: [0, 0]),
                    pod("job-1", ready: [false], restarts: [0], phase: "Succeeded"),
                ])
            ]), detection: .init())
        let table = try await HTTPTestClient.get(port: server.port, "/").text
        #expect(table.contains(#"data-col="ready" data-value="1">1/2<"#), "\(table.prefix(3000))")
        // Short of all ready is marked; all ready is not, nor a finished job's pod.
        #expect(table.contains(#"class="cell num short" data-col="ready" data-value="1">1/2<"#))
        #expect(table.contains(#"class="cell num" data-col="ready" data-value="2">2/2<"#))
        #expect(table.contains(#"class="cell num" data-col="ready" data-value="0">0/1<"#), "the job's pod")
        let job = try await HTTPTestClient.get(port: server.port, "/items/job-1").text
        #expect(job.contains(#"class="cell num" data-col="ready" data-value="0">0/1<"#))
        let web = try await HTTPTestClient.get(port: server.port, "/items/web-1").text
        #expect(web.contains(#"class="cell num short" data-col="ready" data-value="1">1/2<"#))
        #expect(table.contains(#"class="cell num lower-better" data-col="restarts" data-value="7">7<"#))
        let sorted = try await HTTPTestClient.get(port: server.port, "/?sort=restarts&order=desc").text
        let order = ["api-1", "web-1", "db-1"].compactMap { sorted.range(of: "id=\"item-\($0)\"")?.lowerBound }
        #expect(order.count == 3 && order == order.sorted(), "most restarts first")
        // A tile: led by its phase, its figures first among its facts.
        let kiosk = try await HTTPTestClient.get(port: server.port, "/kiosk").text
        let tile = try TileAttentionTests.tile("api-1", in: kiosk)
        #expect(tile == ["phase", "ready", "restarts", "namespace"], "\(tile)")
    }
}
