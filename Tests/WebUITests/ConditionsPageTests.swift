import FeedCore
import Foundation
import TestSupport
import Testing

@testable import WebUI

/// Kubernetes' nodes, whose `status` holds only objects and arrays: each node's `Ready`
/// condition shown as `kubectl get nodes` shows its STATUS, over HTTP, and kept in step.
@Suite(.timeLimit(.minutes(2)), .onThreadsOfItsOwn)
struct ConditionsPageTests {
    private static func node(_ index: Int, ready: String) -> String {
        #"""
        {"metadata": {"name": "node-\#(index)", "uid": "\#(index)aaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee"},
         "status": {"capacity": {"cpu": "4", "pods": "110"},
                    "conditions": [{"type": "MemoryPressure", "status": "False"}, {"type": "Ready", "status": "\#(ready)"}],
                    "nodeInfo": {"kubeletVersion": "v1.31.2"}}}
        """#
    }

    /// Each `ready` cell of `page`: its classes and its words.
    private func readiness(_ page: String) -> [(classes: String, words: String)] {
        page.matches(
            of: /<td class="([^"]*)" data-col="ready"><span class="status-word">([^<]*)<\/span><\/td>/
        ).map { (String($0.output.1), String($0.output.2)) }
    }

    @Test("a node's Ready condition: Ready in the good tone, Not ready in the bad, sorted, and following patches")
    func nodesReady() async throws {
        let list =
            #"{"kind": "NodeList", "items": [\#(Self.node(0, ready: "True")), \#(Self.node(1, ready: "False")), \#(Self.node(2, ready: "True"))]}"#
        let server = try TestServer(document: try JSONValue(parsing: list), detection: .init())
        var shown = readiness(try await HTTPTestClient.get(port: server.port, "/").text)
        #expect(shown.map(\.words) == ["Ready", "Not ready", "Ready"], "\(shown)")
        #expect(shown[0].classes.contains("status-good") && shown[1].classes.contains("status-bad"), "\(shown)")
        let page = try await HTTPTestClient.get(port: server.port, "/").text
        #expect(!page.contains("fields<"), "the status is no count of fields")
        let sorted = readiness(try await HTTPTestClient.get(port: server.port, "/?sort=ready").text)
        #expect(sorted.first?.words == "Not ready", "\(sorted)")
        try server.store.apply(
            JSONPatch(json: .array([Patch.replace("/items/1/status/conditions/1/status", .string("True"))])))
        shown = readiness(try await HTTPTestClient.get(port: server.port, "/").text)
        #expect(shown.map(\.words) == ["Ready", "Ready", "Ready"], "\(shown)")
    }
}
