import FeedCore
import Foundation
import TestSupport
import Testing

/// `--mode firebase` through the real binary against a scripted Firebase REST stream:
/// downstream it is a document like any other, `data` and then RFC 6902 patches, and the
/// pages show its items.
@Suite(.serialized, .timeLimit(.minutes(2)), .onThreadsOfItsOwn)
struct FirebaseModeTests {
    static func event(_ type: String, _ path: String, _ data: String) -> String {
        SSEText.event(type, data: #"{"path":"\#(path)","data":\#(data)}"#)
    }

    @Test("put at / is the data, a later put and patch are patches on /events; the items show on the pages")
    func downstream() async throws {
        let server = try await ScriptedSSEServer.start(script: [
            .redirect(307, to: "/v0/.json?ns=hn"),
            .events(
                Self.event("put", "/", #"{"items":[{"id":1,"title":"First story"}]}"#), SSEText.comment("keep"),
                ending: .stayOpen),
        ])
        defer { server.shutdownNow() }
        let feedweb = try await FeedwebProcess(arguments: [
            "--upstream", server.url("/v0/.json"), "--mode", "firebase", "--profile", "generic",
        ])
        defer { feedweb.kill() }
        let events = try await SSETestClient(port: feedweb.port)
        let data = try await events.next(type: "data", within: 10)
        #expect(try JSONValue(parsing: data.data) == JSONValue(parsing: #"{"items":[{"id":1,"title":"First story"}]}"#))

        try await server.push(Self.event("put", "/items/1", #"{"id":2,"title":"Second story"}"#))
        let added = try await JSONPatch(parsing: events.next(type: "patch", within: 5).data)
        #expect(
            added.operations == [
                .add(
                    path: try JSONPointer("/items/1"),
                    value: try JSONValue(parsing: #"{"id":2,"title":"Second story"}"#))
            ])
        try await server.push(Self.event("patch", "/items/0", #"{"title":"First story, edited"}"#))
        let edited = try await JSONPatch(parsing: events.next(type: "patch", within: 5).data)
        #expect(
            edited.operations == [
                .replace(path: try JSONPointer("/items/0/title"), value: .string("First story, edited"))
            ])

        let page = try await HTTPTestClient.get(port: feedweb.port, "/").text
        #expect(page.contains("First story, edited") && page.contains("Second story"))
        let ready = try await FeedwebProbe.readiness(port: feedweb.port)
        #expect(ready.status == 200)
        #expect(ready.body["upstream"]?["source"]?.stringValue?.hasPrefix("firebase http://127.0.0.1") == true)
        #expect(await feedweb.stop()?.status == 0)
    }
}
