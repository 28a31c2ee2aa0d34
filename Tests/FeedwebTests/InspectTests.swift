import FeedCore
import Foundation
import TestSupport
import Testing

/// `/inspect`, against the real binary: in headless Chromium, the live tree is
/// the document `/api/state` serves and a new event shows in the log within 100 ms of
/// reaching feedweb, its waterfall in order; changes redrawn line by line and row by row
/// leave the tree the document and the log /inspect's, and keep what the reader unfolded; with 1,000 `/events` clients its last socket
/// write is within 5 ms of the last client's reading of it; a client that stops reading
/// (SIGSTOP) is marked stalled within 5 s and leaves the list when it goes; `--inspect off`
/// is 404.
@Suite(.serialized, .timeLimit(.minutes(4)), .onThreadsOfItsOwn)
struct InspectTests {
    /// The rows of `/inspect`'s event log, newest first: id and stage times (ns; `nil`:
    /// not yet) in the order received, parsed, committed, first write, last write.
    static func eventRows(port: UInt16) async throws -> [(id: String, stages: [UInt64?])] {
        let html = try await HTTPTestClient.get(port: port, "/inspect").text
        var rows: [(String, [UInt64?])] = []
        for part in html.components(separatedBy: "<tr class=\"inspect-event\"").dropFirst() {
            guard let id = Self.attribute("data-id", in: part), let stages = Self.attribute("data-stages-ns", in: part)
            else { continue }
            rows.append((id, stages.split(separator: " ").map { UInt64($0) }))
        }
        return rows
    }

    static func attribute(_ name: String, in text: String) -> String? {
        guard let start = text.range(of: name + "=\"") else { return nil }
        guard let end = text[start.upperBound...].firstIndex(of: "\"") else { return nil }
        return String(text[start.upperBound..<end])
    }

    /// A page script's `read(li)`: the tree read back from the node `li`, every node's type
    /// and key, every scalar's JSON text.
    static let treeReader = """
        function read(li) {
          var type = li.dataset.type;
          if (type === 'object' || type === 'array') {
            var list = li.querySelector(':scope > details > ul');
            var children = Array.prototype.filter.call(list.children, function (c) { return c.dataset.type; });
            if (type === 'array') return children.map(read);
            var object = {};
            children.forEach(function (c) { object[c.dataset.key] = read(c); });
            return object;
          }
          return JSON.parse(li.querySelector(':scope > .j-val').textContent);
        }

        """

    /// The `/events` group's clients and stalled clients, from `/inspect`.
    static func eventsGroup(port: UInt16) async throws -> (clients: Int, stalled: Int)? {
        let html = try await HTTPTestClient.get(port: port, "/inspect").text
        guard
            let row = html.components(separatedBy: "<tr class=\"inspect-group").dropFirst()
                .first(where: { $0.contains("data-group=\"/events\"") })
        else { return nil }
        guard let clients = Self.attribute("data-clients", in: row).flatMap(Int.init),
            let stalled = Self.attribute("data-stalled", in: row).flatMap(Int.init)
        else { return nil }
        return (clients, stalled)
    }

    @Test(
        "Chromium: the tree equals /api/state after 50 changes; a new event is listed within 100 ms, in order",
        .enabled(if: WebDriver.isAvailable, "needs chromium and chromium-driver"))
    func liveTreeAndLog() async throws {
        let (upstream, feedweb) = try await LiveFeedUpstream.withFeedweb()
        defer {
            feedweb.kill()
            Task { await upstream.shutdown() }
        }
        let port = feedweb.port
        // A program client, so every event has socket writes to show.
        let reader = try await SSETestClient(port: port, path: "/events")
        defer { reader.close() }
        try await WebDriver.withSession { browser in
            try await browser.open("http://127.0.0.1:\(port)/inspect")
            #expect(try await browser.waitFor("return document.body.dataset.streamState === 'open'", seconds: 10))
            for n in 0..<50 { try await upstream.scriptedChange(n) }
            try await FeedwebProbe.waitForState(upstream.document, port: port)
            let (document, id) = try await FeedwebProbe.state(port: port)
            #expect(
                try await browser.waitFor(
                    "return document.getElementById('inspect-document-id').dataset.id === '\(id)'", seconds: 5),
                "the tree shows change \(id)")
            let readTree =
                Self.treeReader + "return JSON.stringify(read(document.querySelector('#inspect-tree-root > li')));"
            let tree = try await browser.execute(readTree)
            let shown = try JSONValue(parsing: Array((tree.stringValue ?? "").utf8))
            #expect(shown == document, "the tree is the document")
            #expect(
                try await browser.execute("return document.getElementById('inspect-tree-root').dataset.truncated")
                    == .null)

            // A new event, noted by the page the moment its row appears.
            try await browser.execute(
                """
                window.seen = {};
                new MutationObserver(function () {
                  document.querySelectorAll('tr.inspect-event').forEach(function (row) {
                    if (!window.seen[row.dataset.id]) window.seen[row.dataset.id] = Date.now();
                  });
                }).observe(document.body, { childList: true, subtree: true });
                document.querySelectorAll('tr.inspect-event').forEach(function (row) { window.seen[row.dataset.id] = 1; });
                """)
            for n in 50..<60 {
                // The test asks feedweb nothing until the page has listed a new row: its own
                // requests would take the debug build's time in the window it measures.
                let listed = try await browser.execute("return Object.keys(window.seen).length").doubleValue ?? 0
                try await upstream.change([Patch.replace("/results/0/title", .string("Inspected \(n)"))])
                #expect(
                    try await browser.waitFor("return Object.keys(window.seen).length > \(Int(listed))", seconds: 2),
                    "a row appears for change \(n)")
                try await FeedwebProbe.waitForState(upstream.document, port: port)
                let (_, newID) = try await FeedwebProbe.state(port: port)
                #expect(
                    try await browser.waitFor("return !!window.seen['\(newID)']", seconds: 2), "row \(newID) appears")
                let arrived = try await browser.execute(
                    "return document.querySelector('tr.inspect-event[data-id=\"\(newID)\"]').dataset.arrived")
                let seenAt = try await browser.execute("return window.seen['\(newID)']")
                let arrivedAt = try #require(WallTime(rfc3339: arrived.stringValue ?? ""))
                let lag = (seenAt.doubleValue ?? 0) - Double(arrivedAt.microseconds) / 1000
                #expect(lag < 100, "event \(newID) listed \(lag) ms after it reached feedweb")
            }
            // A fold the reader opened stays open when a change redraws the list around it.
            let fold = "document.querySelector('#inspect-tree details[data-path=\"/results/1\"]')"
            #expect(try await browser.execute("return \(fold).open") == .bool(false), "folded at first")
            try await browser.execute("\(fold).querySelector(':scope > summary').click()")
            try await upstream.scriptedChange(0)  // a story on top: /results is redrawn
            try await FeedwebProbe.waitForState(upstream.document, port: port)
            let (_, addedID) = try await FeedwebProbe.state(port: port)
            #expect(
                try await browser.waitFor(
                    "return document.getElementById('inspect-document-id').dataset.id === '\(addedID)'", seconds: 5))
            #expect(try await browser.execute("return \(fold).open") == .bool(true), "the reader's fold is kept")
            // Those changes came as the lines they touched and the rows of their events
            // alone: the tree still reads back as the document, the log as /inspect lists it.
            let (after, _) = try await FeedwebProbe.state(port: port)
            let treeAfter = try await browser.execute(readTree)
            #expect(
                try JSONValue(parsing: Array((treeAfter.stringValue ?? "").utf8)) == after, "the tree is the document")
            let rows = try await Self.eventRows(port: port)
            let listed = rows.map(\.id).joined(separator: " ")
            #expect(
                try await browser.waitFor(
                    """
                    return Array.prototype.map.call(document.querySelectorAll('#inspect-events-rows > tr.inspect-event'),
                      function (row) { return row.dataset.id; }).join(' ') === '\(listed)'
                    """, seconds: 5), "the page's log is /inspect's")
            #expect(rows.count >= 50)
            for row in rows.prefix(20) {
                let known = row.stages.compactMap { $0 }
                #expect(known.count == 5, "\(row.id): every stage known: \(row.stages)")
                #expect(
                    zip(known, known.dropFirst()).allSatisfy { $0 <= $1 }, "\(row.id): stages in order: \(row.stages)")
            }
        }
    }

    @Test("1,000 /events clients: an event's last socket write is within 5 ms of the last client's reading")
    func lastWriteWithCrowd() async throws {
        try FileLimit.raise(toAtLeast: 2400)
        let (upstream, feedweb) = try await LiveFeedUpstream.withFeedweb(["--max-clients", "2000"])
        defer {
            feedweb.kill()
            Task { await upstream.shutdown() }
        }
        let port = feedweb.port
        let crowd = try StreamCrowd(port: port, count: 1000)
        defer { crowd.close() }
        let (_, first) = try await FeedwebProbe.state(port: port)
        #expect(await crowd.waitForAll(first, within: 20), "every client has the first document")
        var gaps: [Double] = []
        for n in 0..<9 {
            try await upstream.change([Patch.replace("/results/0/title", .string("Crowd \(n)"))])
            try await FeedwebProbe.waitForState(upstream.document, port: port)
            let (_, id) = try await FeedwebProbe.state(port: port)
            let arrivals = await crowd.arrivals(of: id, within: 10)
            #expect(arrivals.count == 1000, "every client got \(id)")
            let latest = try #require(arrivals.max())
            var lastWrite: UInt64?
            try await Eventually.check("the last write of \(id) to be listed", within: 3) {
                lastWrite = try await Self.eventRows(port: port).first { $0.id == id }?.stages[4] ?? nil
                return lastWrite != nil
            }
            let write = try #require(lastWrite)
            gaps.append((Double(latest) - Double(write)) / 1e6)
        }
        // The arrivals are the kernel's reception times (StreamCrowd), so the reader's own
        // delays are out of the figure; the sender's are not: a thread that loses its core
        // between its last write and reading the clock stamps the write late (what was seen:
        // BENCHMARKS.md, "The tests' time bounds"). Most events must meet the 5 ms, with the
        // last write stamped no more than 1 ms after the bytes reached the client.
        let within = gaps.filter { $0 >= -1 && $0 <= 5 }
        print("last write → last arrival (ms): \(gaps)")
        #expect(within.count >= 7, "\(gaps.count - within.count) of \(gaps.count) events beyond 5 ms: \(gaps)")
    }

    @Test("a client that stops reading is marked stalled within 5 s, and leaves the list when it disconnects")
    func stalledClient() async throws {
        let (upstream, feedweb) = try await LiveFeedUpstream.withFeedweb()
        defer {
            feedweb.kill()
            Task { await upstream.shutdown() }
        }
        let port = feedweb.port
        // A reader in a process of its own (SIGSTOP stops it), with a small receive window
        // as a TV's browser on a busy network might have: what it does not read stays queued.
        let client = Subprocess()
        client.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        client.arguments = [
            "-c",
            """
            import socket
            s = socket.socket()
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            s.connect(("127.0.0.1", \(port)))
            s.sendall(b"GET /events HTTP/1.1\\r\\nHost: x\\r\\nAccept: text/event-stream\\r\\n\\r\\n")
            while s.recv(65536):
                pass
            """,
        ]
        try client.run()
        defer { ChildProcess.killNow(client) }
        try await Eventually.check("the client to be listed", within: 5) {
            try await Self.eventsGroup(port: port)?.clients == 1
        }
        #expect(try await Self.eventsGroup(port: port)?.stalled == 0)
        kill(client.processIdentifier, SIGSTOP)
        let stoppedAt = ContinuousClock.now
        // Big changes, so the stopped client's socket buffers fill and feedweb's queue waits.
        let big = String(repeating: "x", count: 100_000)
        var stalledAfter: Duration?
        for n in 0..<100 {
            try await upstream.change([Patch.replace("/results/0/abstract", .string("\(n) \(big)"))])
            if try await Self.eventsGroup(port: port)?.stalled == 1 {
                stalledAfter = ContinuousClock.now - stoppedAt
                break
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        let after = try #require(stalledAfter, "the stopped client was marked stalled")
        #expect(after < .seconds(5), "marked stalled after \(after)")
        ChildProcess.killNow(client)
        try await Eventually.check("the client to leave the list", within: 8) {
            try await Self.eventsGroup(port: port) == nil
        }
    }

    @Test("--inspect off: /inspect is 404 and its view is refused")
    func off() async throws {
        let (upstream, feedweb) = try await LiveFeedUpstream.withFeedweb(["--inspect", "off"])
        defer {
            feedweb.kill()
            Task { await upstream.shutdown() }
        }
        #expect(try await HTTPTestClient.get(port: feedweb.port, "/inspect").status == 404)
        #expect(try await HTTPTestClient.get(port: feedweb.port, "/events/page?v=inspect").status == 400)
        #expect(try await HTTPTestClient.get(port: feedweb.port, "/").status == 200)
    }
}
