import FeedCore
import Foundation
import NIOConcurrencyHelpers
import TestSupport
import Testing

/// `--poll URL --interval S` through the real binary against a scripted JSON API.
@Suite(.serialized, .timeLimit(.minutes(2)), .onThreadsOfItsOwn)
struct PollModeTests {
    /// The API the poller reads: a versioned document with ETag and Last-Modified, or a
    /// broken answer, switched by the test.
    final class FakeAPI: @unchecked Sendable {
        enum Mode { case json, html, serverError }
        private let lock = NSLock()
        private var version = 1
        private var mode = Mode.json

        func set(version: Int? = nil, mode: Mode? = nil) {
            lock.withLock {
                if let version { self.version = version }
                if let mode { self.mode = mode }
            }
        }

        static func document(_ version: Int) -> JSONValue {
            .object([
                "version": .int(Int64(version)),
                "items": .array(
                    (1...version).reversed().map { n in
                        .object(["id": .string("story-\(n)"), "title": .string("Story \(n)")])
                    }),
            ])
        }

        func respond(to request: ScriptedSSEServer.RecordedRequest) -> ScriptedSSEServer.Response {
            let (version, mode) = lock.withLock { (self.version, self.mode) }
            switch mode {
            case .html:
                return .status(200, headers: [("Content-Type", "text/html")], body: "<html>maintenance</html>")
            case .serverError:
                return .status(500, body: "boom")
            case .json:
                let etag = "\"v\(version)\""
                let modified = "Mon, 01 Jan 2024 00:00:\(String(format: "%02d", version % 60)) GMT"
                if request.header("If-None-Match") == etag {
                    return .status(304, headers: [("ETag", etag)])
                }
                return .status(
                    200,
                    headers: [("Content-Type", "application/json"), ("ETag", etag), ("Last-Modified", modified)],
                    body: Self.document(version).serializedString())
            }
        }
    }

    private func state(_ port: UInt16) async throws -> JSONValue? {
        let response = try await HTTPTestClient.get(port: port, "/api/state", timeout: 3)
        return response.status == 200 ? try JSONValue(parsing: response.body) : nil
    }

    private func readiness(_ port: UInt16) async throws -> (status: Int, body: JSONValue) {
        let response = try await HTTPTestClient.get(port: port, "/readyz", timeout: 3)
        return (response.status, try JSONValue(parsing: response.body))
    }

    @Test("conditional GETs; the state follows the API; a broken answer shows in /readyz and the state is kept")
    func pollFollowsTheAPI() async throws {
        let api = FakeAPI()
        let server = try await ScriptedSSEServer.start { api.respond(to: $0) }
        defer { server.shutdownNow() }
        let feedweb = try await FeedwebProcess(arguments: [
            "--poll", server.url("/api/news.json?api-key=secret"), "--interval", "0.2", "--profile", "generic",
            "--header", "X-Client: feedweb-test", "--max-backoff", "0.5",
        ])
        defer { feedweb.kill() }

        // The first fetch is the document.
        try await Eventually.check("the first document") { try await state(feedweb.port) == FakeAPI.document(1) }
        let events = try await SSETestClient(port: feedweb.port)
        let data = try await events.next(type: "data", within: 5)
        #expect(try JSONValue(parsing: data.data) == FakeAPI.document(1))

        // Later polls are conditional and get 304s.
        let conditional = try await server.waitFor("a conditional request", timeout: .seconds(10)) {
            server.requests.first { $0.header("If-None-Match") == "\"v1\"" }
        }
        #expect(conditional.header("If-Modified-Since") == "Mon, 01 Jan 2024 00:00:01 GMT")
        #expect(conditional.header("X-Client") == "feedweb-test")
        #expect(conditional.header("Accept") == "application/json")
        #expect(server.requests.first?.header("If-None-Match") == nil, "the first request is unconditional")
        let ready = try await readiness(feedweb.port)
        #expect(ready.status == 200)
        #expect(ready.body["upstream"]?["state"] == .string("open"))
        #expect(ready.body["upstream"]?["source"]?.stringValue?.contains("secret") == false, "no API key on /readyz")

        // A change upstream becomes a patch downstream and the new state.
        api.set(version: 2)
        let patch = try await events.next(type: "patch", within: 10)
        var document = FakeAPI.document(1)
        try JSONPatch(parsing: patch.data).apply(to: &document)
        #expect(document == FakeAPI.document(2))
        try await Eventually.check("the second document") { try await state(feedweb.port) == FakeAPI.document(2) }
        let items = try await JSONValue(parsing: HTTPTestClient.get(port: feedweb.port, "/api/items").body)
        #expect(items.arrayValue?.compactMap { $0["title"]?.stringValue } == ["Story 2", "Story 1"])

        // A non-JSON answer: shown in the status, state kept, retried.
        api.set(mode: .html)
        let broken = try await Eventually.value("/readyz to show the broken answer") {
            let ready = try await readiness(feedweb.port)
            return ready.status == 503 ? ready.body : nil
        }
        #expect(broken["upstream"]?["last_error"]?.stringValue?.contains("not JSON") == true)
        #expect(broken["document"] == .bool(true))
        #expect(try await state(feedweb.port) == FakeAPI.document(2), "the state is kept")

        // An HTTP error likewise; then recovery with a new document.
        api.set(mode: .serverError)
        try await Eventually.check("/readyz to show the 500") {
            try await readiness(feedweb.port).body["upstream"]?["last_error"]?.stringValue?.contains("500") == true
        }
        #expect(try await state(feedweb.port) == FakeAPI.document(2))
        api.set(version: 3, mode: .json)
        try await Eventually.check("recovery") {
            guard try await readiness(feedweb.port).status == 200 else { return false }
            return try await state(feedweb.port) == FakeAPI.document(3)
        }
        #expect(await feedweb.stop()?.status == 0)
    }

    /// An API at `path` that answers whatever `answer` holds now, and feedweb polling it
    /// every 0.2 s, once feedweb holds the first answer. Both are stopped on a failure here;
    /// after, the caller stops them.
    func polling(_ answer: NIOLockedValueBox<JSONValue>, at path: String, _ arguments: [String] = []) async throws -> (
        ScriptedSSEServer, FeedwebProcess
    ) {
        let server = try await ScriptedSSEServer.start { _ in
            .status(
                200, headers: [("Content-Type", "application/json")],
                body: answer.withLockedValue { $0 }.serializedString())
        }
        do {
            let feedweb = try await FeedwebProcess(
                arguments: ["--poll", server.url(path), "--interval", "0.2"] + arguments)
            do {
                try await Eventually.check("the first answer") {
                    try await state(feedweb.port) == answer.withLockedValue { $0 }
                }
            } catch {
                feedweb.kill()
                throw error
            }
            return (server, feedweb)
        } catch {
            server.shutdownNow()
            throw error
        }
    }

    /// A Prometheus instant query's answer: one sample per series, `value` the pair of the
    /// time and the value as text.
    static func prometheus(at time: Double, values: [String]) -> JSONValue {
        let series = zip(["10.0.0.1:9100", "10.0.0.2:9100"], values).map { instance, value -> JSONValue in
            .object([
                "metric": .object([
                    "__name__": .string("node_load1"), "job": .string("node"), "instance": .string(instance),
                ]),
                "value": .array([.double(time), .string(value)]),
            ])
        }
        return .object([
            "status": .string("success"),
            "data": .object(["resultType": .string("vector"), "result": .array(series)]),
        ])
    }

    @Test("a polled Prometheus query: a row per series named by its labels, a new sample an update of its series")
    func prometheusSeriesAreUpdated() async throws {
        let answer = NIOLockedValueBox(Self.prometheus(at: 1_796_000_000.5, values: ["0.25", "1.5"]))
        let (server, feedweb) = try await polling(answer, at: "/api/v1/query?query=node_load1")
        defer { server.shutdownNow() }
        defer { feedweb.kill() }
        let items = try await FeedwebProbe.items(port: feedweb.port)
        #expect(
            items.map { $0["title"]?.stringValue } == [
                "node_load1, node, 10.0.0.1:9100", "node_load1, node, 10.0.0.2:9100",
            ])
        let page = try await HTTPTestClient.get(port: feedweb.port, "/").text
        #expect(
            page.contains("10.0.0.2:9100") && page.contains(">1.50<"), "a label per column; 1.50 at 0.25's decimals")
        let stream = try await SSETestClient(port: feedweb.port, path: "/events/items")
        _ = try await stream.expectNext("snapshot")

        // The next sample: the second series' value changed, the time of both.
        answer.withLockedValue { $0 = Self.prometheus(at: 1_796_000_015.5, values: ["0.25", "2.75"]) }
        var kinds: [String] = []
        var keys: Set<String> = []
        for _ in 0..<2 {
            let event = try await stream.next(before: Date().addingTimeInterval(10))
            kinds.append(event.type)
            keys.insert(try JSONValue(parsing: event.data)["key"]?.stringValue ?? "")
        }
        #expect(kinds == ["updated", "updated"], "the same series, not removed and added again")
        #expect(keys == Set(items.compactMap { $0["key"]?.stringValue }))
        try await Eventually.check("the new value on the page") {
            try await HTTPTestClient.get(port: feedweb.port, "/").text.contains(">2.75<")
        }
        #expect(await feedweb.stop()?.status == 0)
    }

    /// A Kubernetes pod list: each pod's name, namespace and uid in `metadata`, its phase
    /// and address in `status`, beside members a table cannot show in a cell.
    static func pods(phases: [String]) -> JSONValue {
        let items = phases.enumerated().map { index, phase -> JSONValue in
            .object([
                "metadata": .object([
                    "name": .string("web-\(index)"), "namespace": .string("prod"), "uid": .string("uid-\(index)"),
                    "labels": .object(["app": .string("web")]),
                ]),
                "status": .object([
                    "phase": .string(phase), "podIP": .string("10.1.0.\(index)"),
                    "conditions": .array([.object(["type": .string("Ready")])]),
                ]),
            ])
        }
        return .object(["apiVersion": .string("v1"), "kind": .string("PodList"), "items": .array(items)])
    }

    @Test("a polled pod list: rows named by metadata.name, filtered by status.phase, a new phase an update of its pod")
    func kubernetesPodsAreUpdated() async throws {
        let answer = NIOLockedValueBox(Self.pods(phases: ["Running", "Pending", "Running", "Failed"]))
        let (server, feedweb) = try await polling(answer, at: "/api/v1/namespaces/prod/pods")
        defer { server.shutdownNow() }
        defer { feedweb.kill() }
        let items = try await FeedwebProbe.items(port: feedweb.port)
        #expect(items.map { $0["key"]?.stringValue } == ["web-0", "web-1", "web-2", "web-3"])
        #expect(items.map { $0["title"]?.stringValue } == ["web-0", "web-1", "web-2", "web-3"])
        let running = try await HTTPTestClient.get(port: feedweb.port, "/?section=Running").text
        #expect(running.contains("10.1.0.0") && running.contains("10.1.0.2"))
        #expect(!running.contains("10.1.0.1") && !running.contains("10.1.0.3"), "only the running pods")
        let stream = try await SSETestClient(port: feedweb.port, path: "/events/items")
        _ = try await stream.expectNext("snapshot")

        // web-1 starts running.
        answer.withLockedValue { $0 = Self.pods(phases: ["Running", "Running", "Running", "Failed"]) }
        let event = try await stream.next(before: Date().addingTimeInterval(10))
        #expect(event.type == "updated", "the same pod, not removed and added again")
        #expect(try JSONValue(parsing: event.data)["key"]?.stringValue == "web-1")
        try await Eventually.check("web-1 among the running pods") {
            try await HTTPTestClient.get(port: feedweb.port, "/?section=Running").text.contains("10.1.0.1")
        }
        #expect(await feedweb.stop()?.status == 0)
    }

    /// A GitHub Actions answer: run `build` with `status` and `conclusion` as given, and a
    /// run `lint` that passed.
    static func workflowRuns(_ status: String, _ conclusion: String?) -> JSONValue {
        .object([
            "total_count": .int(2),
            "workflow_runs": .array([
                .object([
                    "id": .int(1), "name": .string("build"), "status": .string(status),
                    "conclusion": conclusion.map(JSONValue.string) ?? .null,
                ]),
                .object([
                    "id": .int(2), "name": .string("lint"), "status": .string("completed"),
                    "conclusion": .string("success"),
                ]),
            ]),
        ])
    }

    @Test(
        "in a browser: a run's kiosk tile turns from a busy 'in progress' to a red 'failure' live, its 'completed' keeping its own colour",
        .enabled(if: WebDriver.isAvailable, "needs chromium and chromedriver"))
    func aFailedRunsTileInABrowser() async throws {
        let answer = NIOLockedValueBox(Self.workflowRuns("in_progress", nil))
        let (server, feedweb) = try await polling(answer, at: "/repos/acme/app/actions/runs")
        defer { server.shutdownNow() }
        defer { feedweb.kill() }
        try await WebDriver.withSession(windowWidth: 1280, windowHeight: 720) { browser in
            try await browser.open("http://127.0.0.1:\(feedweb.port)/kiosk")
            #expect(try await browser.waitFor("return document.body.dataset.streamState === 'open'", seconds: 10))
            let lead = "document.querySelector('#item-1 .tile-lead')"
            let first = try await browser.execute("return \(lead).dataset.col + ': ' + \(lead).textContent.trim()")
            #expect(first == .string("status: Status in progress"), "no conclusion yet: \(first)")

            answer.withLockedValue { $0 = Self.workflowRuns("completed", "failure") }
            let changed = try await browser.waitFor(
                "var l = \(lead); return !!l && l.dataset.col === 'conclusion' && l.classList.contains('status-bad')",
                seconds: 10)
            let tile = try await browser.execute("return document.getElementById('item-1').outerHTML")
            #expect(changed, "led by its failure once it has its conclusion: \(tile)")
            // The tile is red; its fact saying "completed" keeps the colour of a good word, the
            // same as in the tile of the run that passed.
            func colour(_ selector: String) async throws -> JSONValue {
                try await browser.execute("return getComputedStyle(document.querySelector('\(selector)')).color")
            }
            let completedInFailedTile = try await colour("#item-1 [data-col=status] .status-word")
            let completedInPassedTile = try await colour("#item-2 [data-col=status] .status-word")
            let failure = try await colour("#item-1 .tile-lead .status-word")
            #expect(completedInFailedTile == completedInPassedTile, "\(completedInFailedTile) \(completedInPassedTile)")
            #expect(completedInFailedTile != failure, "\(completedInFailedTile) \(failure)")
        }
        #expect(await feedweb.stop()?.status == 0)
    }

    @Test(
        "in a browser: a run that fails takes a board of the runs' table for its mark, named by its title, without its id",
        .enabled(if: WebDriver.isAvailable, "needs chromium and chromedriver"))
    func aFailedRunTakesTheBoard() async throws {
        let answer = NIOLockedValueBox(Self.workflowRuns("in_progress", nil))
        let (server, feedweb) = try await polling(
            answer, at: "/repos/acme/app/actions/runs", ["--mark", "Build failed:/conclusion=failure"])
        defer { server.shutdownNow() }
        defer { feedweb.kill() }
        try await WebDriver.withSession(windowWidth: 1280, windowHeight: 720) { browser in
            try await browser.open("http://127.0.0.1:\(feedweb.port)/board?v=list&attention=3")
            #expect(try await browser.waitFor("return document.body.dataset.streamState === 'open'", seconds: 10))
            let table = try await browser.execute(
                "var c = document.querySelector('.bd-cell').shadowRoot; return c.querySelectorAll('tr.row').length")
            #expect(table == .int(2), "the list of a table feed is its table: \(table)")

            answer.withLockedValue { $0 = Self.workflowRuns("completed", "failure") }
            let overlay = """
                var el = document.getElementById('attention');
                var shown = !!el && !el.hidden && getComputedStyle(el).display !== 'none';
                """
            #expect(
                try await browser.waitFor(
                    overlay + "return shown && el.dataset.label === 'Build failed';", seconds: 10))
            let shown = try await browser.execute(
                overlay
                    + """
                    var root = el.shadowRoot;
                    var title = root.querySelector('.bd-attention-title');
                    var names = Array.prototype.map.call(root.querySelectorAll('dt'), function (d) {
                      return d.textContent.trim();
                    });
                    return (title ? title.textContent.trim() : '') + '|' + names.join(',');
                    """)
            let parts = (shown.stringValue ?? "").split(separator: "|", omittingEmptySubsequences: false)
            #expect(parts.first == "build", "the run's title heads the screen: \(shown)")
            let names = parts.last.map { $0.split(separator: ",").map { $0.lowercased() } } ?? []
            #expect(names.contains("conclusion") && names.contains("status"), "its values: \(shown)")
            #expect(!names.contains("id") && !names.contains("name"), "no id, no title twice: \(shown)")
            // The screen takes the failure's tone: its label in the red of the failed status.
            let tones = try await browser.execute(
                overlay
                    + """
                    var root = el.shadowRoot;
                    var word = root.querySelector('dd.status-bad .status-word');
                    return [getComputedStyle(root.querySelector('.bd-attention-label')).color,
                      word ? getComputedStyle(word).color : 'none'];
                    """)
            let colours = tones.arrayValue?.compactMap(\.stringValue) ?? []
            #expect(colours.count == 2 && colours[0] == colours[1], "\(tones)")
        }
        #expect(await feedweb.stop()?.status == 0)
    }

    @Test(
        "in a browser: a price that crosses a --mark's limit takes the kiosk once, not at each change above it",
        .enabled(if: WebDriver.isAvailable, "needs chromium and chromedriver"))
    func aPriceCrossingALimitTakesTheKioskOnce() async throws {
        func quotes(_ acme: Double) -> JSONValue {
            .object([
                "quotes": .array([
                    .object(["symbol": .string("ACME"), "price": .double(acme)]),
                    .object(["symbol": .string("GLBX"), "price": .double(41.07)]),
                ])
            ])
        }
        let answer = NIOLockedValueBox(quotes(90.5))
        let (server, feedweb) = try await polling(answer, at: "/quotes", ["--mark", "Above 100:/price>100"])
        defer { server.shutdownNow() }
        defer { feedweb.kill() }
        try await WebDriver.withSession(windowWidth: 1280, windowHeight: 720) { browser in
            try await browser.open("http://127.0.0.1:\(feedweb.port)/kiosk?attention=1")
            #expect(try await browser.waitFor("return document.body.dataset.streamState === 'open'", seconds: 10))
            let overlay = """
                var el = document.getElementById('attention');
                var shown = !!el && !el.hidden && getComputedStyle(el).display !== 'none';
                """
            func price(is value: String) async throws -> Bool {
                try await browser.waitFor(
                    "var p = document.querySelector('#item-ACME .tile-lead'); return !!p && p.dataset.value === '\(value)';",
                    seconds: 10)
            }
            func shows(within seconds: Double) async throws -> Bool {
                try await browser.waitFor(
                    overlay + "return shown && el.dataset.label === 'Above 100';", seconds: seconds)
            }
            answer.withLockedValue { $0 = quotes(110.5) }
            #expect(try await price(is: "110.5"))
            #expect(try await shows(within: 5), "crossing 100 takes the screen")
            // The tile as a row is: its name, then its figures under their labels, on the screen.
            #expect(try await browser.waitFor(AttentionScreen.onScreen, seconds: 0.5), "the quote on the screen")
            #expect(try await browser.execute(AttentionScreen.title) == .string("ACME"))
            #expect(try await browser.waitFor(overlay + "return !shown;", seconds: 5), "for its second")

            answer.withLockedValue { $0 = quotes(120.5) }
            #expect(try await price(is: "120.5"))
            #expect(try await !shows(within: 1.5), "a change above the limit is no new crossing")

            answer.withLockedValue { $0 = quotes(95.5) }
            #expect(try await price(is: "95.5"))
            answer.withLockedValue { $0 = quotes(105.5) }
            #expect(try await price(is: "105.5"))
            #expect(try await shows(within: 5), "crossing again takes it again")
        }
        #expect(await feedweb.stop()?.status == 0)
    }

    @Test("/stats weighs what each screen gets from feedweb's stream against each screen polling the API")
    func statsWeighTheScreensBytes() async throws {
        /// 40 quotes, one of whose prices moves at each answer.
        func quotes(_ step: Int) -> JSONValue {
            .object([
                "quotes": .array(
                    (0..<40).map { n in
                        .object([
                            "symbol": .string("S\(n)"), "name": .string("Company number \(n)"),
                            "price": .double(Double(100 + n) + (n == step % 40 ? 0.5 : 0)),
                            "volume": .int(Int64(1000 * n)),
                        ])
                    })
            ])
        }
        let step = NIOLockedValueBox(0)
        let answer = NIOLockedValueBox(quotes(0))
        let (server, feedweb) = try await polling(answer, at: "/quotes")
        defer { server.shutdownNow() }
        defer { feedweb.kill() }
        let document = answer.withLockedValue { $0 }.serializedBytes().count
        // Changes arrive while the counterfactual screen polls every 0.2 s.
        for _ in 0..<8 {
            let next = step.withLockedValue {
                $0 += 1
                return $0
            }
            answer.withLockedValue { $0 = quotes(next) }
            try await Task.sleep(for: .milliseconds(300))
        }
        let stats = try await Eventually.value("a few changes counted") { () async throws -> JSONValue? in
            let body = try JSONValue(parsing: try await HTTPTestClient.get(port: feedweb.port, "/api/stats").text)
            return (body["totals"]?["changes"]?.int64Value ?? 0) >= 4 ? body : nil
        }
        #expect(stats["comparison"] == .string("screens"))
        let sent = stats["totals"]?["bytes_received"]?.int64Value ?? 0
        let polling = stats["totals"]?["polling_bytes"]?.int64Value ?? 0
        // The document once (as a `data` event), then a patch of one price per change.
        #expect(sent > Int64(document) && sent < Int64(document) * 2, "sent \(sent) for a document of \(document)")
        #expect(polling > sent * 2, "each screen polling: \(polling), sent: \(sent)")
        let page = try await HTTPTestClient.get(port: feedweb.port, "/stats").text
        for words in ["Sent to each screen", "Each screen polling", "New items", "each screen polling the API every"] {
            #expect(page.contains(words), "\(words) on /stats")
        }
        #expect(!page.contains("streaming cost more than polling") && !page.contains("New stories"))
    }

    @Test(
        "in a browser: a wrong URL's board says what the API answered; once it answers, the board is laid out for its items",
        .enabled(if: WebDriver.isAvailable, "needs chromium and chromedriver"))
    func aBoardOpenedBeforeTheFirstAnswer() async throws {
        let answers = NIOLockedValueBox(false)
        func build(_ n: Int) -> JSONValue {
            let status = n == 2 ? "failed" : "passed"
            return .object([
                "id": .int(Int64(400 + n)), "branch": .string("fix-\(n)"), "status": .string(status),
                "duration_s": .int(Int64(60 * n)),
            ])
        }
        let builds = JSONValue.object(["builds": .array((1...3).map(build))])
        let server = try await ScriptedSSEServer.start { _ in
            answers.withLockedValue { $0 }
                ? .status(200, headers: [("Content-Type", "application/json")], body: builds.serializedString())
                : .status(404, body: "no such API")
        }
        defer { server.shutdownNow() }
        let feedweb = try await FeedwebProcess(arguments: [
            "--poll", server.url("/api/builds"), "--interval", "0.2", "--max-backoff", "0.3",
        ])
        defer { feedweb.kill() }
        try await WebDriver.withSession(windowWidth: 1280, windowHeight: 720) { browser in
            try await browser.open("http://127.0.0.1:\(feedweb.port)/board?v=list&v=kiosk")
            let banner = "var s = document.getElementById('status'); var p = s && s.querySelector('.badge-problem');"
            #expect(
                try await browser.waitFor(
                    banner
                        + "return s.classList.contains('board-status-failing') && !!p && /HTTP 404/.test(p.textContent)",
                    seconds: 10))
            try await browser.execute("window.__beforeTheAnswer = true")

            answers.withLockedValue { $0 = true }
            // Reloaded once for the items (the marker is gone), then a table and its tiles.
            let laidOut = """
                var cells = document.querySelectorAll('.bd-cell');
                if (window.__beforeTheAnswer || cells.length !== 2) return false;
                var table = cells[0].shadowRoot, kiosk = cells[1].shadowRoot;
                return cells[0].dataset.spec === 'table' && table.querySelectorAll('tr.row').length === 3
                  && kiosk.querySelectorAll('.board-tiles > .tile').length === 3
                  && document.getElementById('status').classList.contains('board-status-live')
                  && !document.body.hasAttribute('data-waiting');
                """
            let shown = try await browser.waitFor(laidOut, seconds: 15)
            let state = try await browser.execute(
                "return document.body.outerHTML.slice(0, 400) + ' marker=' + window.__beforeTheAnswer")
            #expect(shown, "\(state)")
            #expect(
                try await browser.execute("return document.getElementById('status').querySelector('.badge-problem')")
                    == .null, "no problem once live")
        }
        #expect(await feedweb.stop()?.status == 0)
    }

    /// `count` builds of thirteen members each, build `n` `status` failed (its `conclusion`
    /// `failure`, the last member) when `failed`.
    static func wideBuilds(_ count: Int, failed: Int? = nil) -> JSONValue {
        func build(_ n: Int) -> JSONValue {
            let members: JSONObject = [
                "id": .int(Int64(5000 + n)), "pipeline": .string("deploy-service-number-\(n)"),
                "status": .string(n == failed ? "failed" : "passed"), "branch": .string("feature/long-branch-\(n)"),
                "commit": .string(String(repeating: "abcdef", count: 2) + "\(n)"), "author": .string("author-\(n)"),
                "duration_s": .int(Int64(30 + n)), "queued_s": .int(Int64(n)),
                "runner": .string("runner-pool-\(n % 3)"),
                "stage": .string("integration-tests"), "retries": .int(Int64(n % 2)),
                "url": .string("https://ci.example/builds/\(5000 + n)"),
                "conclusion": .string(n == failed ? "failure" : "success"),
            ]
            return .object(members)
        }
        return .object(["builds": .array((1...count).map(build))])
    }

    /// `count` listed shares of nine members each, the price last.
    static func widePrices(_ count: Int) -> JSONValue {
        func share(_ n: Int) -> JSONValue {
            .object([
                "symbol": .string("SYM\(n)"), "name": .string("Company number \(n) Holdings"),
                "exchange": .string("Exchange of the North \(n % 3)"), "sector": .string("Sector of things \(n % 4)"),
                "industry": .string("Industry of the sector \(n % 5)"), "country": .string("Country \(n % 6)"),
                "currency": .string("EUR"), "listed": .string("Since the year \(1990 + n)"),
                "price": .double(100 + Double(n) / 4),
            ])
        }
        return .object(["shares": .array((1...count).map(share))])
    }

    /// What the table of a board's first cell shows: the columns and rows not hidden, what
    /// the line under it says, and whether anything spills out of the cell or scrolls.
    static let measureBoardTable = """
        var root = document.querySelector('.bd-cell').shadowRoot;
        var cell = document.querySelector('.bd-cell').getBoundingClientRect();
        var table = root.getElementById('items-table'), scroll = table.closest('.table-scroll');
        function shown(el) { return getComputedStyle(el).display !== 'none'; }
        var heads = Array.prototype.filter.call(table.tHead.rows[0].cells, shown).map(function (c) { return c.dataset.col; });
        var rows = Array.prototype.filter.call(table.tBodies[0].rows, shown);
        var outside = rows.filter(function (r) { var b = r.getBoundingClientRect(); return b.bottom > cell.bottom + 1 || b.right > cell.right + 1; });
        var foot = scroll.getBoundingClientRect().bottom;
        var cut = rows.filter(function (r) { return r.getBoundingClientRect().bottom > foot + 1; });
        function label(c) { var a = c.cloneNode(true); a.querySelectorAll('.sort-arrow').forEach(function (x) { x.remove(); }); return a.textContent.trim(); }
        var hiddenHeads = Array.prototype.filter.call(table.tHead.rows[0].cells, function (c) { return !shown(c); }).map(label);
        var note = root.querySelector('.table-left-out'), box = note && note.getBoundingClientRect();
        var all = Array.prototype.slice.call(table.tBodies[0].rows);
        function need(r) { return r.querySelector('td.status-bad') ? 2 : r.querySelector('td.status-busy') ? 1 : 0; }
        return { heads: heads, all: table.tHead.rows[0].cells.length, rows: rows.length,
          hiddenHeads: hiddenHeads, hiddenRows: table.tBodies[0].rows.length - rows.length,
          note: note && shown(note) ? note.textContent : null,
          noteInside: !!box && box.bottom <= cell.bottom + 1 && box.right <= cell.right + 1 && box.height > 0,
          outside: outside.length, cut: cut.length, leftOut: table.getAttribute('data-columns-left-out'),
          scrolls: scroll.scrollWidth > scroll.clientWidth + 1 || scroll.scrollHeight > scroll.clientHeight + 1,
          first: rows.length ? rows[0].id : '',
          order: Array.prototype.map.call(table.tHead.rows[0].cells, function (c) { return c.dataset.col; }),
          named: (function () { var a = table.tBodies[0].querySelector('.row-link'); return a ? a.closest('td').dataset.col : ''; })(),
          statuses: Array.prototype.map.call(table.tHead.rows[0].cells, function (c) { return c.dataset.col; })
            .filter(function (col) { return !!table.tBodies[0].querySelector('td.status[data-col="' + col + '"]'); }),
          shownIds: rows.map(function (r) { return r.id; }),
          pressingIds: all.filter(function (r) { return need(r) > 0; }).map(function (r) { return r.id; }),
          calmIds: all.filter(function (r) { return need(r) === 0; }).map(function (r) { return r.id; }),
          hiddenWords: all.filter(function (r) { return !shown(r) && need(r) > 0; }).map(function (r) {
            return r.querySelector(need(r) === 2 ? 'td.status-bad' : 'td.status-busy').textContent.trim(); }) };
        """

    @Test(
        "in a browser: a board's narrow table of prices keeps the price, the figure its tiles are led by, and leaves out columns before it",
        .enabled(if: WebDriver.isAvailable, "needs chromium and chromedriver"))
    func aBoardsTableKeepsTheLeadFigure() async throws {
        let answer = NIOLockedValueBox(Self.widePrices(12))
        try await onABoard(answer) { browser, _ in
            #expect(
                try await browser.waitFor(
                    "return document.querySelector('.bd-cell').shadowRoot.querySelectorAll('#items-table tr.row').length === 12",
                    seconds: 10))
            let fitted = try await browser.execute(Self.measureBoardTable)
            let heads = fitted["heads"]?.arrayValue?.compactMap(\.stringValue) ?? []
            let order = fitted["order"]?.arrayValue?.compactMap(\.stringValue) ?? []
            let named = fitted["named"]?.stringValue ?? ""
            #expect(order.last == "price" && heads.count < order.count, "some columns left out: \(fitted)")
            #expect(heads.contains("price") && heads.contains(named), "the price and the name kept: \(fitted)")
            // Of the rest, the first are shown and the last left out, as before.
            let rest = order.filter { $0 != named && $0 != "price" }
            #expect(heads.filter(rest.contains) == Array(rest.prefix(heads.count - 2)), "\(fitted)")
            // The kiosk's tiles are led by the same column.
            let leads = try await browser.execute(
                """
                return Array.prototype.map.call(
                  document.querySelectorAll('.bd-cell')[1].shadowRoot.querySelectorAll('.tile-lead'),
                  function (lead) { return lead.dataset.col; }).join(',');
                """)
            #expect(leads.stringValue?.split(separator: ",").allSatisfy { $0 == "price" } == true, "\(leads)")
        }
    }

    @Test(
        "in a browser: a board's table shows what fits its cell, whole: no scrollbar, columns left out from the right but the name and the status last, no row cut",
        .enabled(if: WebDriver.isAvailable, "needs chromium and chromedriver"))
    func aBoardsTableFitsItsCell() async throws {
        let answer = NIOLockedValueBox(Self.wideBuilds(30))
        try await onABoard(answer) { browser, feedweb in
            let fitted = try await browser.execute(Self.measureBoardTable)
            let heads = fitted["heads"]?.arrayValue?.compactMap(\.stringValue) ?? []
            let all = Int(fitted["all"]?.int64Value ?? 0)
            let rows = fitted["rows"]?.int64Value ?? 0
            #expect(all >= 12 && heads.count >= 3 && heads.count < all, "some columns left out: \(fitted)")
            #expect(fitted["leftOut"]?.stringValue == String(all - heads.count), "\(fitted)")
            #expect(rows >= 3 && rows < 30, "the rows that fit: \(fitted)")
            // The columns left out are the last of those that are neither the item's name nor
            // a status: those two stay, and the others shown are the first of the rest.
            let order = fitted["order"]?.arrayValue?.compactMap(\.stringValue) ?? []
            let named = fitted["named"]?.stringValue ?? ""
            let statuses = fitted["statuses"]?.arrayValue?.compactMap(\.stringValue) ?? []
            #expect(
                order.count == all && Set(statuses) == ["status", "conclusion"] && order.contains(named), "\(fitted)")
            #expect(
                order.last == "conclusion" && heads.contains(named) && statuses.allSatisfy(heads.contains), "\(fitted)")
            let rest = order.filter { $0 != named && !statuses.contains($0) }
            #expect(
                heads.filter(rest.contains) == Array(rest.prefix(heads.count - 1 - statuses.count)),
                "\(fitted)")
            #expect(fitted["outside"] == .int(0) && fitted["scrolls"] == .bool(false), "\(fitted)")
            // What was left out is said under the table, inside the cell: the hidden rows'
            // count and the hidden columns' names, as their headings show them.
            let hiddenHeads = fitted["hiddenHeads"]?.arrayValue?.compactMap(\.stringValue) ?? []
            let hiddenRows = fitted["hiddenRows"]?.int64Value ?? 0
            #expect(hiddenHeads.count == all - heads.count, "\(fitted)")
            let more = hiddenRows == 0 ? [] : ["\(hiddenRows) more row\(hiddenRows == 1 ? "" : "s")"]
            let said = (more + ["Not shown: " + hiddenHeads.joined(separator: ", ")]).joined(separator: " · ")
            #expect(fitted["note"]?.stringValue == said, "\(fitted)")
            #expect(fitted["noteInside"] == .bool(true) && fitted["cut"] == .int(0), "\(fitted)")
            // Fitted again (as on a resize): measured from scratch, the same columns and rows.
            try await browser.execute("window.dispatchEvent(new Event('resize'))")
            try await Task.sleep(for: .milliseconds(400))
            let refitted = try await browser.execute(Self.measureBoardTable)
            #expect(refitted["heads"] == fitted["heads"] && refitted["rows"] == fitted["rows"], "\(refitted)")

            // A change: the row comes again, and the table still fits, with the same columns.
            answer.withLockedValue { $0 = Self.wideBuilds(30, failed: 1) }
            #expect(
                try await browser.waitFor(
                    "var r = document.querySelector('.bd-cell').shadowRoot.querySelector('#items-table tbody tr');"
                        + "return !!r && /failed/.test(r.textContent);", seconds: 10))
            let again = try await browser.execute(Self.measureBoardTable)
            #expect(again["heads"] == fitted["heads"] && again["rows"] == fitted["rows"], "\(again)")
            #expect(again["outside"] == .int(0) && again["scrolls"] == .bool(false), "\(again)")

            // The same table on its own page keeps every column (it scrolls there).
            try await browser.open("http://127.0.0.1:\(feedweb.port)/")
            let page = try await browser.execute(
                "return Array.prototype.filter.call(document.querySelectorAll('#items-table th'),"
                    + " function (c) { return getComputedStyle(c).display !== 'none'; }).length")
            #expect(page == .int(Int64(all)), "\(page)")
        }
    }

    /// `count` builds of an id and a status: `failed` where `failed` holds their number,
    /// `running` where `running` does, else `passed`.
    static func narrowBuilds(_ count: Int, failed: Set<Int>, running: Set<Int> = []) -> JSONValue {
        let builds: [JSONValue] = (1...count).map { n in
            let status = failed.contains(n) ? "failed" : running.contains(n) ? "running" : "passed"
            return .object(["id": .int(Int64(700 + n)), "status": .string(status)])
        }
        return .object(["builds": .array(builds)])
    }

    @Test(
        "in a browser: a board's table whose rows do not all fit keeps those that call for attention, and says how many are past the foot",
        .enabled(if: WebDriver.isAvailable, "needs chromium and chromedriver"))
    func aBoardsNarrowTableKeepsTroubleInView() async throws {
        // A failed and a running build near the end of 40, past any 720-pixel cell's foot.
        let answer = NIOLockedValueBox(Self.narrowBuilds(40, failed: [33, 38], running: [36]))
        try await onABoard(answer) { browser, _ in
            let fitted = try await browser.execute(Self.measureBoardTable)
            let hiddenRows = fitted["hiddenRows"]?.int64Value ?? 0
            let shown = fitted["shownIds"]?.arrayValue?.compactMap(\.stringValue) ?? []
            let pressing = fitted["pressingIds"]?.arrayValue?.compactMap(\.stringValue) ?? []
            let calm = fitted["calmIds"]?.arrayValue?.compactMap(\.stringValue) ?? []
            #expect(
                fitted["hiddenHeads"]?.arrayValue?.isEmpty == true && fitted["leftOut"] == .string("0"), "\(fitted)")
            #expect(pressing.count == 3 && hiddenRows > 0 && shown.count >= 6, "\(fitted)")
            // The rows kept: the three in trouble, and the first of the calm ones.
            let kept = Set(pressing + calm.prefix(shown.count - pressing.count))
            #expect(Set(shown) == kept && shown.count + Int(hiddenRows) == 40, "\(fitted)")
            #expect(fitted["note"]?.stringValue == "\(hiddenRows) more rows", "\(fitted)")
            // The line's own height was counted: no row shown is cut, the line is in the cell.
            #expect(fitted["outside"] == .int(0) && fitted["cut"] == .int(0), "\(fitted)")
            #expect(fitted["scrolls"] == .bool(false), "\(fitted)")
            #expect(fitted["noteInside"] == .bool(true), "\(fitted)")

            // More rows in trouble than the cell holds: the first of them are kept, and the
            // line counts the others by their status words.
            answer.withLockedValue { $0 = Self.narrowBuilds(40, failed: Set(11...40)) }
            #expect(
                try await browser.waitFor(
                    "var r = document.querySelector('.bd-cell').shadowRoot.querySelectorAll('#items-table td.status-bad');"
                        + "return r.length === 30;", seconds: 10))
            let full = try await browser.execute(Self.measureBoardTable)
            let fullShown = full["shownIds"]?.arrayValue?.compactMap(\.stringValue) ?? []
            let fullPressing = full["pressingIds"]?.arrayValue?.compactMap(\.stringValue) ?? []
            let words = full["hiddenWords"]?.arrayValue?.compactMap(\.stringValue) ?? []
            let fullHidden = full["hiddenRows"]?.int64Value ?? 0
            #expect(fullShown == Array(fullPressing.prefix(fullShown.count)) && fullShown.count < 30, "\(full)")
            #expect(!words.isEmpty && Set(words).count == 1 && words.count == 30 - fullShown.count, "\(full)")
            let said = "\(fullHidden) more rows (\(words.count) \(words.first ?? ""))"
            #expect(full["note"]?.stringValue == said, "\(full)")
            #expect(full["outside"] == .int(0) && full["cut"] == .int(0), "\(full)")
        }
    }

    /// The keys of a board's kiosk tiles (its second cell), and of its table's rows (its
    /// first) in feed order, those with a bad or busy status apart.
    static let readBoardTiles = """
        var cells = document.querySelectorAll('.bd-cell');
        var list = cells[0].shadowRoot, kiosk = cells[1].shadowRoot;
        var rows = Array.prototype.slice.call(list.querySelectorAll('#items-table tbody tr'));
        function key(r) { return r.dataset.key; }
        function need(r) { return !!r.querySelector('td.status-bad, td.status-busy'); }
        return { tiles: Array.prototype.map.call(kiosk.querySelectorAll('.board-tiles > .tile'), key),
          rows: rows.map(key), pressing: rows.filter(need).map(key),
          calm: rows.filter(function (r) { return !need(r); }).map(key) };
        """

    @Test(
        "in a browser: a kiosk of more items than it has tiles shows those in trouble among the first, and takes in one that falls into trouble",
        .enabled(if: WebDriver.isAvailable, "needs chromium and chromedriver"))
    func aKioskKeepsTroubleInView() async throws {
        let answer = NIOLockedValueBox(Self.narrowBuilds(40, failed: [33, 38], running: [36]))
        try await onABoard(answer) { browser, feedweb in
            /// The tiles a kiosk of `limit` should show: every row in trouble and the first
            /// calm ones, in feed order.
            func expected(_ read: JSONValue, limit: Int) -> [String] {
                let strings = { (name: String) in read[name]?.arrayValue?.compactMap(\.stringValue) ?? [] }
                let shown = Set(
                    strings("pressing").prefix(limit) + strings("calm").prefix(limit - strings("pressing").count))
                return strings("rows").filter(shown.contains)
            }
            let first = try await browser.execute(Self.readBoardTiles)
            let tiles = first["tiles"]?.arrayValue?.compactMap(\.stringValue) ?? []
            #expect(first["rows"]?.arrayValue?.count == 40 && first["pressing"]?.arrayValue?.count == 3, "\(first)")
            #expect(tiles.count >= 6 && tiles.count < 40 && tiles == expected(first, limit: tiles.count), "\(first)")

            // Build 20 fails and the others pass: its tile comes in, those of the three go.
            answer.withLockedValue { $0 = Self.narrowBuilds(40, failed: [20]) }
            #expect(
                try await browser.waitFor(
                    "var f = function () { \(Self.readBoardTiles) }; var m = f();"
                        + "return m.pressing.length === 1 && m.tiles.indexOf(m.pressing[0]) >= 0;", seconds: 10))
            let second = try await browser.execute(Self.readBoardTiles)
            let after = second["tiles"]?.arrayValue?.compactMap(\.stringValue) ?? []
            #expect(after.count == tiles.count && after == expected(second, limit: tiles.count), "\(second)")
            // The kiosk's own page, rendered by the server, shows the same tiles.
            let page = try await HTTPTestClient.get(port: feedweb.port, "/kiosk", timeout: 5).text
            let keys = page.components(separatedBy: "<li class=\"tile").dropFirst().compactMap { tile in
                tile.components(separatedBy: "data-key=\"").dropFirst().first?.components(separatedBy: "\"").first
            }
            #expect(keys == after, "\(keys)")
        }
    }

    /// `answer`, polled at `/api/builds`, on a board of a list and a kiosk in a 1280×720
    /// browser: `body` runs once the board's stream is open; feedweb must then stop cleanly.
    func onABoard(
        _ answer: NIOLockedValueBox<JSONValue>, _ body: (WebDriver, FeedwebProcess) async throws -> Void
    ) async throws {
        let (server, feedweb) = try await polling(answer, at: "/api/builds")
        defer { server.shutdownNow() }
        defer { feedweb.kill() }
        try await WebDriver.withSession(windowWidth: 1280, windowHeight: 720) { browser in
            try await browser.open("http://127.0.0.1:\(feedweb.port)/board?v=list&v=kiosk")
            #expect(try await browser.waitFor("return document.body.dataset.streamState === 'open'", seconds: 10))
            try await body(browser, feedweb)
        }
        #expect(await feedweb.stop()?.status == 0)
    }

    @Test("an unreachable API: /readyz 503 with the error, and retries")
    func unreachable() async throws {
        let feedweb = try await FeedwebProcess(arguments: [
            "--poll", "http://127.0.0.1:9/api", "--interval", "0.1", "--max-backoff", "0.2",
        ])
        defer { feedweb.kill() }
        let body = try await Eventually.value("a few failed attempts") {
            let ready = try await readiness(feedweb.port)
            let attempts = ready.body["upstream"]?["reconnects"]?.int64Value ?? 0
            return ready.status == 503 && attempts >= 2 ? ready.body : nil
        }
        #expect(body["upstream"]?["last_error"]?.stringValue?.isEmpty == false)
        #expect(body["document"] == .bool(false))
    }
}
