import FeedCore
import Foundation
import TestSupport
import Testing

/// `--upstream mqtt://…`, through the real binary against a real broker (Eclipse Mosquitto)
/// on loopback, its messages published with Mosquitto's own client: the topics are the
/// items, each its latest message, from the retained ones on; a cleared topic goes; the
/// broker's refusals are said in words; a broker that stops answering is noticed.
@Suite(.serialized, .timeLimit(.minutes(2)), .onThreadsOfItsOwn)
struct MQTTTests {
    static func topics(_ port: UInt16) async throws -> [String: JSONValue] {
        let state = try await JSONValue(parsing: HTTPTestClient.get(port: port, "/api/state").body)
        var found: [String: JSONValue] = [:]
        for item in state["items"]?.arrayValue ?? [] {
            if let topic = item["topic"]?.stringValue { found[topic] = item }
        }
        return found
    }

    @Test("retained messages first, each topic one row kept in step; a cleared topic gone; feed text escaped")
    func sensors() async throws {
        let broker = try await MosquittoBroker()
        defer { broker.kill() }
        try await broker.publish(#"{"temperature":21.5,"humidity":44}"#, on: "home/kitchen", retain: true)
        try await broker.publish("OPEN", on: "home/garage/door", retain: true)
        try await broker.publish("18.25", on: "office/attic", retain: true)
        let feedweb = try await FeedwebProcess(arguments: [
            "--upstream", broker.url("home/#"), "--mode", "append", "--title", "Home", "--read-timeout", "2",
        ])
        defer { feedweb.kill() }
        try await Eventually.check("the retained state of home/#") {
            try await Self.topics(feedweb.port).count == 2
        }
        var topics = try await Self.topics(feedweb.port)
        #expect(topics["home/kitchen"]?["temperature"] == .double(21.5))
        #expect(topics["home/garage/door"]?["value"] == .string("OPEN"))
        #expect(topics["office/attic"] == nil, "outside the filter")
        // Retained, as sensors publish: a reconnect in between (a slow machine) loses none.
        try await broker.publish(#"{"temperature":22.75,"humidity":45}"#, on: "home/kitchen", retain: true)
        let hostile = "home/<script>alert(1)</script>"
        try await broker.publish(#"{"temperature":19}"#, on: hostile, retain: true)
        try await broker.publish(nil, on: "home/garage/door", retain: true)
        try await Eventually.check("the kitchen's new reading, the hostile topic, the door gone") {
            let topics = try await Self.topics(feedweb.port)
            return topics["home/kitchen"]?["temperature"] == .double(22.75) && topics[hostile] != nil
                && topics["home/garage/door"] == nil
        }
        topics = try await Self.topics(feedweb.port)
        #expect(topics.count == 2, "one row a topic: \(topics.keys.sorted())")
        let page = try await HTTPTestClient.get(port: feedweb.port, "/").text
        #expect(page.contains("22.75") && page.contains("home/kitchen"))
        #expect(page.contains("&lt;script&gt;") && !page.contains("<script>alert"))
        let ready = try await JSONValue(parsing: HTTPTestClient.get(port: feedweb.port, "/readyz").body)
        #expect(ready["upstream"]?["state"] == .string("open") && ready["upstream"]?["upstream_errors"] == .int(0))
    }

    @Test("a broker's refusal said in words, the password never shown; the right one connects")
    func credentials() async throws {
        let user = (name: "dash", password: "s3cret-pass")
        let broker = try await MosquittoBroker(user: user)
        defer { broker.kill() }
        try await broker.publish(#"{"load":0.42}"#, on: "servers/web-1", retain: true, user: user)
        let wrong = try await FeedwebProcess(arguments: [
            "--upstream", broker.url("servers/+", user: (user.name, "wrong-pass")), "--mode", "append",
        ])
        defer { wrong.kill() }
        try await Eventually.check("the refusal on /readyz") {
            let ready = try await JSONValue(parsing: HTTPTestClient.get(port: wrong.port, "/readyz").body)
            return ready["upstream"]?["last_upstream_error"]?.stringValue?.contains("refused the connection") == true
        }
        let ready = try await HTTPTestClient.get(port: wrong.port, "/readyz").text
        #expect(ready.contains("not authorized") || ready.contains("bad user name or password"), "\(ready)")
        #expect(!ready.contains("wrong-pass"))
        let right = try await FeedwebProcess(arguments: [
            "--upstream", broker.url("servers/+", user: user), "--mode", "append",
        ])
        defer { right.kill() }
        try await Eventually.check("web-1's load") {
            try await Self.topics(right.port)["servers/web-1"]?["load"] == .double(0.42)
        }
        let page = try await HTTPTestClient.get(port: right.port, "/").text
        #expect(!page.contains("s3cret-pass"))
    }

    @Test("a broker that stops answering is noticed within the read timeout, and read again once it answers")
    func silentBroker() async throws {
        let broker = try await MosquittoBroker()
        defer {
            broker.pause(false)
            broker.kill()
        }
        let feedweb = try await FeedwebProcess(arguments: [
            "--upstream", broker.url("plant/#"), "--mode", "append", "--read-timeout", "1", "--max-backoff", "0.5",
        ])
        defer { feedweb.kill() }
        // Retained: feedweb may not have subscribed yet.
        try await broker.publish(#"{"rpm":1200}"#, on: "plant/pump", retain: true)
        try await Eventually.check("the pump") { try await Self.topics(feedweb.port)["plant/pump"] != nil }
        broker.pause(true)
        try await Eventually.check("the silence noticed", within: 10) {
            let ready = try await JSONValue(parsing: HTTPTestClient.get(port: feedweb.port, "/readyz").body)
            return ready["upstream"]?["last_error"]?.stringValue?.contains("read timeout") == true
        }
        broker.pause(false)
        // Retained: published while feedweb may still be reconnecting, it is sent on subscribing.
        try await broker.publish(#"{"rpm":1350}"#, on: "plant/pump", retain: true)
        try await Eventually.check("the pump's new speed, after a reconnect", within: 15) {
            try await Self.topics(feedweb.port)["plant/pump"]?["rpm"] == .int(1350)
        }
    }

    /// The test CA and the certificate it signed for 127.0.0.1 and localhost.
    static let tls: MosquittoBroker.TLS = {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("FeedCoreTests/Fixtures/tls")
        return MosquittoBroker.TLS(
            caFile: folder.appendingPathComponent("ca.pem").path,
            certificateFile: folder.appendingPathComponent("server.pem").path,
            keyFile: folder.appendingPathComponent("server-key.pem").path)
    }()

    @Test("mqtts: a broker whose certificate the --ca-file signed is read; without it, the TLS failure said")
    func overTLS() async throws {
        let broker = try await MosquittoBroker(tls: Self.tls)
        defer { broker.kill() }
        try await broker.publish(#"{"ok":true}"#, on: "lab/probe", retain: true)
        let trusted = try await FeedwebProcess(arguments: [
            "--upstream", broker.url("lab/#"), "--mode", "append", "--ca-file", Self.tls.caFile,
        ])
        defer { trusted.kill() }
        let untrusted = try await FeedwebProcess(arguments: ["--upstream", broker.url("lab/#"), "--mode", "append"])
        defer { untrusted.kill() }
        try await Eventually.check("the probe over TLS") {
            try await Self.topics(trusted.port)["lab/probe"]?["ok"] == .bool(true)
        }
        try await Eventually.check("the untrusted certificate said") {
            let ready = try await JSONValue(parsing: HTTPTestClient.get(port: untrusted.port, "/readyz").body)
            return ready["upstream"]?["last_error"]?.stringValue?.contains("CERTIFICATE_VERIFY_FAILED") == true
        }
    }

    @Test("document mode: each message on the topic is the whole document; one that is not JSON is counted")
    func documents() async throws {
        let broker = try await MosquittoBroker()
        defer { broker.kill() }
        let feedweb = try await FeedwebProcess(arguments: ["--upstream", broker.url("board/state")])
        defer { feedweb.kill() }
        try await broker.publish(#"{"results":[{"id":"a","title":"First"}]}"#, on: "board/state", retain: true)
        try await Eventually.check("the first document, retained") {
            let state = try await JSONValue(parsing: HTTPTestClient.get(port: feedweb.port, "/api/state").body)
            return state["results"]?.arrayValue?.count == 1
        }
        try await broker.publish("not json", on: "board/state")
        try await broker.publish(
            #"{"results":[{"id":"a","title":"First"},{"id":"b","title":"Second"}]}"#, on: "board/state", retain: true)
        try await Eventually.check("the second document") {
            let state = try await JSONValue(parsing: HTTPTestClient.get(port: feedweb.port, "/api/state").body)
            return state["results"]?.arrayValue?.count == 2
        }
        let ready = try await JSONValue(parsing: HTTPTestClient.get(port: feedweb.port, "/readyz").body)
        #expect(ready["upstream"]?["upstream_errors"] == .int(1))
    }

    @Test("a wrong scheme or --send with a broker exits 2 naming the option")
    func options() async throws {
        let send = try await FeedwebRun.run(["--upstream", "mqtt://127.0.0.1:1/a", "--send", "x"])
        #expect(send.status == 2 && send.standardError.contains("--send"))
        let firebase = try await FeedwebRun.run(["--upstream", "mqtt://127.0.0.1:1/a", "--mode", "firebase"])
        #expect(firebase.status == 2 && firebase.standardError.contains("--mode"))
    }
}
