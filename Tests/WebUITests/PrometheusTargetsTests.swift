import FeedCore
import Foundation
import TestSupport
import Testing

@testable import WebUI

/// Prometheus' `/api/v1/targets` as its own targets page shows it: each target named by its
/// `instance`, filtered by its health, without the internal labels and the texts it repeats.
@Suite(.timeLimit(.minutes(2)), .onThreadsOfItsOwn)
struct PrometheusTargetsTests {
    static func target(_ job: String, _ instance: String, _ health: String) -> JSONValue {
        .object([
            "discoveredLabels": .object([
                "__address__": .string(instance), "__metrics_path__": .string("/metrics"),
                "__scheme__": .string("http"), "job": .string(job),
            ]),
            "labels": .object(["instance": .string(instance), "job": .string(job)]),
            "scrapePool": .string(job), "scrapeUrl": .string("http://\(instance)/metrics"),
            "globalUrl": .string("http://\(instance)/metrics"), "lastError": .string(""),
            "lastScrapeDuration": .double(0.003), "health": .string(health),
        ])
    }

    @Test("named by its instance, filtered by health; no __address__, no repeated job, pool or URL")
    func targetsPage() async throws {
        let server = try TestServer(
            document: .object([
                "status": .string("success"),
                "data": .object([
                    "activeTargets": .array([
                        Self.target("node", "10.0.0.1:9100", "up"), Self.target("node", "10.0.0.2:9100", "down"),
                        Self.target("prometheus", "localhost:9090", "up"), Self.target("api", "10.0.1.5:8080", "up"),
                    ]),
                    "droppedTargets": .array([]),
                ]),
            ]), detection: .init())
        let table = try await HTTPTestClient.get(port: server.port, "/").text
        let headings = TableColumnOrderTests.headings(table)
        #expect(headings.prefix(2) == ["instance", "health"], "\(headings)")
        #expect(headings.contains("job") && headings.contains("scrapeUrl"), "\(headings)")
        for repeated in ["__address__", "__scheme__", "scrapePool", "globalUrl"] {
            #expect(!headings.contains(repeated), "\(repeated) in \(headings)")
        }
        #expect(headings.filter { $0.contains("job") }.count == 1, "\(headings)")
        #expect(table.contains(#"data-col="job" aria-sort="none"><a href="/?sort=job">Job</a>"#), "headed Job alone")
        // The instance links to the target's page; the filter is its health.
        #expect(table.contains(#"class="row-link" href="/items/"#))
        let link = try #require(table.firstMatch(of: /<a class="row-link" href="[^"]+">([^<]+)<\/a>/))
        #expect(link.output.1 == "10.0.0.1:9100")
        #expect(table.contains(#"href="/?section=down""#), "\(table.prefix(2000))")
    }
}
